import { appendFileSync, cpSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { loadFakeScript, startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { onlyJson, REPO_ROOT, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): a suite replays three bundled runs (fix-bug twice,
// code-improver once) with real validators and Bash in the sandbox: 25–40 s a suite at load 30.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 60_000 });

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SUITE = "examples/eval/bundled.suite.json";

/** A copy of examples/ (agents, cassettes, the sample repository, the suite) to change. */
function examplesCopy(): string {
  const dir = tempDir("eval");
  folders.push(dir);
  for (const part of ["agents", "cassettes", "sample-repo", "eval", "fake-models"]) {
    cpSync(path.join(REPO_ROOT, "examples", part), path.join(dir, part), { recursive: true });
  }
  return dir;
}

interface CaseJson {
  readonly name: string;
  readonly status: string;
  readonly fromStep?: string;
  readonly details: readonly string[];
}

function cases(stdout: string): Record<string, CaseJson> {
  const list = onlyJson(stdout).cases as CaseJson[];
  return Object.fromEntries(list.map((entry) => [entry.name, entry]));
}

const FULL = "fix-bug fixes slugify";
const SHORT = "fix-bug stops at its cap after the analysis";
const IMPROVER = "code-improver improves slugify";

describe("climpt eval", () => {
  it("passes the suite over the bundled agents offline, with a table, JUnit XML and markdown", async () => {
    const out = tempDir("eval-out");
    folders.push(out);
    const junit = path.join(out, "eval.xml");
    const markdown = path.join(out, "eval.md");
    const { code, stderr } = await spawnCli([
      "eval",
      SUITE,
      "--junit",
      junit,
      "--markdown",
      markdown,
    ]);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/CASE\s+RESULT\s+ITER\s+COST\s+TIME/);
    expect(stderr).toMatch(new RegExp(`${FULL}\\s+pass\\s+7\\s`));
    expect(stderr).toContain("3 of 3 case(s) passed.");
    const xml = readFileSync(junit, "utf8");
    expect(xml).toContain('<testsuite name="bundled.suite.json" tests="3" failures="0" errors="0"');
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(readFileSync(markdown, "utf8")).toContain(`| ${FULL} | ✅ pass | 7 |`);
  });

  it("after one prompt changes, exactly the cases whose requests include it need a live run from that step", async () => {
    const copy = examplesCopy();
    const suite = path.join(copy, "eval", "bundled.suite.json");
    // The implement step's prompt: only the full fix-bug run sends it.
    appendFileSync(
      path.join(copy, "agents/fix-bug/prompts/steps/continuation/implement/f_default.md"),
      "\nKeep the change as small as the failing tests allow.\n",
    );
    const implement = await spawnCli(["eval", suite, "--json"]);
    expect(implement.code, implement.stderr).toBe(1);
    const afterImplement = cases(implement.stdout);
    expect(afterImplement[FULL]).toMatchObject({
      status: "needs-live",
      fromStep: "continuation.implement",
    });
    expect(afterImplement[FULL]?.details[0]).toContain(
      "needs a live run from continuation.implement",
    );
    expect(afterImplement[SHORT]?.status).toBe("passed");
    expect(afterImplement[IMPROVER]?.status).toBe("passed");

    // The analysis prompt: both fix-bug cases send it, first thing; code-improver does not.
    appendFileSync(
      path.join(copy, "agents/fix-bug/prompts/steps/initial/analyze/f_default.md"),
      "\nName the failing test first.\n",
    );
    const analyze = await spawnCli(["eval", suite]);
    expect(analyze.code).toBe(1);
    expect(analyze.stderr).toMatch(
      new RegExp(`${FULL}\\s+needs a live run from initial\\.analyze`),
    );
    expect(analyze.stderr).toMatch(
      new RegExp(`${SHORT}\\s+needs a live run from initial\\.analyze`),
    );
    expect(analyze.stderr).toMatch(new RegExp(`${IMPROVER}\\s+pass`));
    expect(analyze.stderr).toContain("1 of 3 case(s) passed.");
  });

  it("--live records the cassette again from the changed step on, asking the model only from there", async () => {
    const copy = examplesCopy();
    const suite = path.join(copy, "eval", "bundled.suite.json");
    appendFileSync(
      path.join(copy, "agents/fix-bug/prompts/steps/continuation/implement/f_default.md"),
      "\nKeep the change as small as the failing tests allow.\n",
    );
    // The scripted model answers the implement step and what follows; the analysis (its first
    // three replies) must come from the cassette, or the replies would be out of step.
    const script = await loadFakeScript(path.join(copy, "fake-models", "fix-bug.json"));
    const fake = await startFakeAnthropic();
    try {
      fake.enqueue(...script.replies.slice(3));
      const live = await spawnCli(["eval", suite, "--live", "--json"], {
        env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test-key" },
      });
      expect(live.code, live.stderr).toBe(0);
      expect(cases(live.stdout)[FULL]).toMatchObject({
        status: "passed",
        fromStep: "continuation.implement",
        rerecorded: true,
      });
      expect(fake.messageRequests()).toHaveLength(script.replies.length - 3);
      expect(fake.pending()).toBe(0);
    } finally {
      await fake.close();
    }
    // Offline again: the re-recorded cassette holds the changed requests.
    const offline = await spawnCli(["eval", suite]);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stderr).toContain("3 of 3 case(s) passed.");
  });

  it("refuses a suite it cannot use with coded problems naming the JSON path (exit 2)", async () => {
    const copy = examplesCopy();
    const suite = path.join(copy, "eval", "bad.suite.json");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      suite,
      JSON.stringify({
        cases: [
          { name: "a", agent: "../agents/fix-bug", cassette: "../cassettes/nope.jsonl" },
          {
            name: "b",
            agent: "../agents/fix-bug",
            cassette: "../cassettes/fix-bug.jsonl",
            expect: { steps: "x", soon: 1 },
          },
        ],
      }),
    );
    const { code, stderr } = await spawnCli(["eval", suite, "--json"]);
    expect(code).toBe(2);
    expect(stderr).toContain("AC-EVAL-003");
    expect(stderr).toContain("$.cases[0].cassette");
    expect(stderr).toContain("$.cases[1].expect.steps");
    expect(stderr).toContain("$.cases[1].expect.soon");
    writeFileSync(suite, "{ not json");
    const unreadable = await spawnCli(["eval", suite]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain("AC-EVAL-001");
  });
  it("runs cases concurrently with the same report as one at a time: the suite's order, the same results", async () => {
    const strip = (stdout: string) =>
      (onlyJson(stdout).cases as Record<string, unknown>[]).map(
        ({ durationMs: _ms, ...rest }) => rest,
      );
    const started = Date.now();
    const parallel = await spawnCli(["eval", SUITE, "--json", "--concurrency", "3"]);
    const parallelMs = Date.now() - started;
    expect(parallel.code, parallel.stderr).toBe(0);
    const serialStarted = Date.now();
    const serial = await spawnCli(["eval", SUITE, "--json", "--concurrency", "1"]);
    const serialMs = Date.now() - serialStarted;
    expect(serial.code, serial.stderr).toBe(0);
    expect(strip(parallel.stdout).map((entry) => entry.name)).toEqual([FULL, SHORT, IMPROVER]);
    expect(strip(parallel.stdout)).toEqual(strip(serial.stdout));
    // Timing is not asserted (a busy machine decides it); it is printed for the record.
    console.log(
      `climpt eval bundled suite: --concurrency 3 ${parallelMs} ms, --concurrency 1 ${serialMs} ms`,
    );
    const bad = await spawnCli(["eval", SUITE, "--concurrency", "0"]);
    expect(bad.code).toBe(2);
  });
});
