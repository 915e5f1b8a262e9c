import { describe, expect, it } from "vitest";
import {
  checkLogsText,
  checkName,
  checksList,
  ciScrubber,
  fenced,
  LOG_TAIL_CHARS,
  LOGS_TOTAL_CHARS,
  safeLink,
} from "./check-text.ts";
import { actionsRunOf, type PullRequestCheck } from "./gh-checks.ts";

const check = (name: string, link = "https://github.com/o/r/actions/runs/7/job/9") =>
  ({ name, state: "FAILURE", bucket: "fail", link, workflow: "CI" }) as PullRequestCheck;

describe("CI text is untrusted: bounded, scrubbed, kept inside its fence", () => {
  it("keeps a check name that tries to close the fence inside a longer fence", () => {
    const hostile = "x\n```\n@everyone [click](https://evil.example) ````";
    const list = checksList([check(hostile)], ciScrubber({}));
    const fence = /^(`{3,})text$/m.exec(list)?.[1] ?? "";
    expect(fence.length).toBeGreaterThan(4);
    // The name is one line, and the block is closed only by the same fence at the end.
    const body = list.slice(list.indexOf("\n") + 1, list.lastIndexOf(fence));
    expect(body).not.toContain(`\n${fence}`);
    expect(body.trim().split("\n")).toHaveLength(1);
    expect(fenced("a ````` b").startsWith("``````text\n")).toBe(true);
    expect(checkName("a\u0000b\u001b[31mc\u2028d")).toBe("a b [31mc d");
    expect(checkName("n".repeat(500))).toHaveLength(120);
  });

  it("links only plain https URLs, and reads run ids as digits only", () => {
    expect(safeLink("https://github.com/o/r/actions/runs/1/job/2")).not.toBeNull();
    expect(safeLink("javascript:alert(1)")).toBeNull();
    expect(safeLink("https://x.example/a) [b](https://y")).toBeNull();
    expect(safeLink("https://x.example/a b")).toBeNull();
    expect(actionsRunOf("https://github.com/o/r/actions/runs/123/job/456")).toEqual({
      run: "123",
      job: "456",
    });
    expect(actionsRunOf("https://github.com/o/r/actions/runs/--help")).toBeNull();
    expect(actionsRunOf("https://github.com/o/r/actions/runs/1;rm -rf /")).toBeNull();
    expect(actionsRunOf("https://github.com/o/r/actions/runs/1/job/2 --repo x/y")).toBeNull();
    const list = checksList([check("test", "https://evil.example/x)(y")], ciScrubber({}));
    expect(list).not.toContain("evil");
  });

  it("scrubs the environment's secrets and credential-shaped text from logs, and bounds them per check and in all", () => {
    const token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    const scrubber = ciScrubber({ DEPLOY_TOKEN: "s3cr3t-deploy-value-42" });
    const log = `test\tRun tests\t2026-01-01T00:00:00Z using s3cr3t-deploy-value-42\nleaked ${token}\n${"x".repeat(10_000)}\nFAIL: expected 1 to be 2`;
    const text = checkLogsText(
      [
        { check: check("test"), log },
        { check: check("e2e"), log: "y".repeat(20_000) },
        { check: check("lint"), log: "z".repeat(20_000) },
        { check: check("types"), log: "w".repeat(20_000) },
      ],
      scrubber,
    );
    expect(text).not.toContain("s3cr3t-deploy-value-42");
    expect(text).not.toContain(token);
    expect(text.startsWith("== test ==\n")).toBe(true);
    expect(text).toContain("FAIL: expected 1 to be 2");
    expect(text.length).toBeLessThanOrEqual(LOGS_TOTAL_CHARS + 200);
    const first = text.split("\n\n== ")[0] ?? "";
    expect(first.length).toBeLessThanOrEqual(LOG_TAIL_CHARS + 100);
    const short = checkLogsText([{ check: check("t"), log: `a ${token} b` }], scrubber);
    expect(short).not.toContain(token);
  });
});
