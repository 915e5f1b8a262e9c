import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderPage } from "./render-page.ts";
import { renderRunsPage } from "./runs-page.ts";
import { pageScrubber } from "./scrub-secrets.ts";
import type { PageData } from "./view-model.ts";

describe("pageScrubber", () => {
  it("is model's scrubber at its widest: broad names and credential shapes", () => {
    const scrubber = pageScrubber({ DEPLOY_CREDENTIAL: "my-deploy-credential-value" });
    expect(scrubber.scrub("a my-deploy-credential-value b")).toBe(
      "a [REDACTED DEPLOY_CREDENTIAL] b",
    );
    expect(scrubber.scrub("x ghp_abcdefghijklmnopqrstuvwxyz0123456789")).toBe("x [redacted]");
  });
});

describe("renderPage", () => {
  it("embeds journal text that looks like markup as data, never as markup", () => {
    const data: PageData = {
      mode: "file",
      generatedAt: "2026-11-24T00:00:00.000Z",
      runs: [],
      sources: {
        r: {
          runId: "r",
          events: [{ type: "notice", message: "</script><script>alert(1)</script>\u2028" }],
          declaredFlow: null,
          notices: [],
        },
      },
      selectedRunId: null,
    };
    const html = renderPage(data);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).toContain("\\u003c/script>\\u003cscript>alert(1)");
    expect(html).toContain("connect-src 'none'");
    expect(html).not.toMatch(/<(?:link|img|iframe)\b|\bsrc="http|@import|url\(http/);
  });
});

describe("renderRunsPage", () => {
  it("shows no secret from the journal or the environment's secret-named variables", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "climpt-viewer-secret-"));
    const journal = path.join(dir, "20261124T000000Z-abcdef.jsonl");
    const time = "2026-11-24T00:00:00.000Z";
    const lines = [
      {
        type: "run_start",
        runId: "20261124T000000Z-abcdef",
        time,
        seq: 1,
        agent: "a",
        agentDir: dir,
        args: { token: "ghp_abcdefghijklmnopqrstuvwxyz0123456789" },
      },
      {
        type: "step_start",
        runId: "r",
        time,
        seq: 2,
        iteration: 1,
        stepId: "initial.a",
        stepKind: "work",
        model: "m",
        phase: "step",
        retry: false,
      },
      {
        type: "tool_call",
        runId: "r",
        time,
        seq: 3,
        iteration: 1,
        stepId: "initial.a",
        call: { id: "t1", name: "Bash", input: { command: "env" } },
      },
      {
        type: "tool_result",
        runId: "r",
        time,
        seq: 4,
        iteration: 1,
        stepId: "initial.a",
        call: { id: "t1", name: "Bash", input: { command: "env" } },
        result: {
          content: "MY_SERVICE_PASSWORD=hunter2-hunter2\nother=my-deploy-credential-value",
          isError: false,
        },
        durationMs: 3,
      },
    ];
    writeFileSync(journal, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    const html = await renderRunsPage({
      journals: [journal],
      env: { DEPLOY_CREDENTIAL: "my-deploy-credential-value" },
    });
    for (const secret of ["ghp_abcdef", "hunter2-hunter2", "my-deploy-credential-value"])
      expect(html).not.toContain(secret);
    expect(html).toContain("MY_SERVICE_PASSWORD=[redacted]");
    expect(html).toContain("[REDACTED DEPLOY_CREDENTIAL]");
  });
});
