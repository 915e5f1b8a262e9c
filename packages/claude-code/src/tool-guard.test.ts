import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agentDefinition, step, useTempDirs } from "./claude-code.test-helper.ts";
import { resolveToolAccess } from "./tool-access.ts";
import { createToolGuard, type ToolGuard } from "./tool-guard.ts";

const tempDir = useTempDirs();

function guardFor(cwd: string, allowedTools?: readonly string[]): ToolGuard {
  return createToolGuard(
    resolveToolAccess(
      agentDefinition(allowedTools === undefined ? {} : { allowedTools }),
      step("initial.issue", "work"),
    ),
    cwd,
  );
}

describe("the tool guard", () => {
  it("lets ordinary calls through", () => {
    const cwd = tempDir();
    const guard = guardFor(cwd);
    expect(guard("Read", { file_path: path.join(cwd, "a.ts") })).toEqual({ allowed: true });
    expect(guard("Write", { file_path: "src/new.ts", content: "x" })).toEqual({ allowed: true });
    expect(guard("Bash", { command: "git status && npm test" })).toEqual({ allowed: true });
    expect(guard("Grep", { pattern: "x" })).toEqual({ allowed: true });
    expect(guard("Glob", { pattern: "src/**/*.ts" })).toEqual({ allowed: true });
    expect(guard("StructuredOutput", { anything: 1 })).toEqual({ allowed: true });
  });

  it("refuses boundary commands with the filter's reason, scripts included", () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, "ship.sh"), "gh pr merge 4 --squash\n");
    const guard = guardFor(cwd);
    expect(guard("Bash", { command: "gh issue close 1" })).toMatchObject({
      allowed: false,
      code: "TOOL-POLICY-003",
      reason: expect.stringContaining("gh issue close"),
    });
    expect(guard("Bash", { command: "bash ship.sh" })).toMatchObject({ code: "TOOL-POLICY-003" });
    expect(guard("Bash", { command: "git push --force origin main" })).toMatchObject({
      code: "TOOL-POLICY-003",
    });
  });

  it("refuses a command that asks to leave the sandbox", () => {
    expect(
      guardFor(tempDir())("Bash", { command: "ls", dangerouslyDisableSandbox: true }),
    ).toMatchObject({ allowed: false, code: "AC-CC-005" });
  });

  it("confines file paths to the working directory, links resolved, and keeps writes out of .git", () => {
    const cwd = tempDir();
    const outside = tempDir("climpt-cc-outside-");
    mkdirSync(path.join(cwd, ".git"));
    symlinkSync(outside, path.join(cwd, "link"));
    const guard = guardFor(cwd, ["Read", "Write", "Edit", "Glob", "Grep", "NotebookEdit"]);
    for (const [tool, input] of [
      ["Read", { file_path: "/etc/passwd" }],
      ["Read", { file_path: "../x" }],
      ["Write", { file_path: "link/planted.txt", content: "x" }],
      ["Edit", { file_path: ".git/config", old_string: "a", new_string: "b" }],
      ["Grep", { pattern: "root", path: "/etc" }],
      ["Glob", { pattern: "/etc/*.conf" }],
      ["Glob", { pattern: "../**/*.key" }],
      ["NotebookEdit", { notebook_path: "/tmp/x.ipynb", new_source: "" }],
    ] as const) {
      expect(guard(tool, input), `${tool} ${JSON.stringify(input)}`).toMatchObject({
        allowed: false,
        code: "TOOL-POLICY-004",
      });
    }
    // Reading .git is fine; only writes are kept out.
    expect(guard("Read", { file_path: ".git/HEAD" })).toEqual({ allowed: true });
  });

  it("refuses writes into the run's protected paths (journal folder, agent definitions), reads pass", () => {
    const cwd = tempDir();
    mkdirSync(path.join(cwd, ".agent", "me"), { recursive: true });
    symlinkSync(".agent/me", path.join(cwd, "innocent"));
    const guard = createToolGuard(
      resolveToolAccess(
        agentDefinition({ allowedTools: ["Read", "Write", "Edit", "NotebookEdit"] }),
        step("initial.issue", "work"),
      ),
      cwd,
      [
        { path: ".agent", reason: "agent definitions are not the model's." },
        { path: "tmp/logs", reason: "the journal is the runner's." },
      ],
    );
    for (const [tool, input] of [
      ["Write", { file_path: ".agent/me/agent.json", content: "{}" }],
      [
        "Edit",
        { file_path: path.join(cwd, ".agent/me/agent.json"), old_string: "a", new_string: "b" },
      ],
      ["Write", { file_path: "innocent/steps_registry.json", content: "{}" }],
      ["Write", { file_path: "tmp/logs/run.jsonl", content: "{}" }],
      ["NotebookEdit", { notebook_path: ".agent/me/x.ipynb", new_source: "" }],
    ] as const) {
      expect(guard(tool, input), `${tool} ${JSON.stringify(input)}`).toMatchObject({
        allowed: false,
        code: "TOOL-POLICY-004",
        reason: expect.stringMatching(/which no tool of this run may change/),
      });
    }
    expect(guard("Read", { file_path: ".agent/me/agent.json" })).toEqual({ allowed: true });
    expect(guard("Write", { file_path: "tmp/notes.md", content: "x" })).toEqual({ allowed: true });
  });

  it("refuses tools the step does not have, with the policy's code", () => {
    const guard = guardFor(tempDir(), ["Read"]);
    expect(guard("Bash", { command: "ls" })).toMatchObject({
      allowed: false,
      code: "TOOL-POLICY-001",
    });
    expect(guard("mcp__climpt__github_close_issue", { issue: 1 })).toMatchObject({
      code: "TOOL-POLICY-001",
    });
  });

  it("checks a command field of any tool, not only Bash's", () => {
    const guard = guardFor(tempDir(), ["Read", "Monitor"]);
    expect(guard("Monitor", { command: "gh api repos/o/r -X DELETE" })).toMatchObject({
      code: "TOOL-POLICY-003",
    });
  });
});
