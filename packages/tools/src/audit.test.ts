import { describe, expect, it } from "vitest";
import { auditPolicy, formatPolicyAudit } from "./audit.ts";
import { agentDefinition, loadedAgent, step } from "./tools.test-helper.ts";

describe("auditPolicy", () => {
  const loaded = loadedAgent(
    agentDefinition({
      name: "issue-solver",
      allowedTools: [
        "Read",
        "Write",
        "Edit",
        "Bash",
        "Glob",
        "Grep",
        "TodoWrite",
        "github_close_issue",
      ],
    }),
    [
      step("initial.issue", "work"),
      // A verification step runs in plan mode without saying so.
      step("verification.issue", "verification"),
      step("section.notes", "section"),
      step("closure.issue", "closure", {
        allowedTools: ["Read", "Bash", "Task", "WebFetch", "github_close_issue"],
      }),
    ],
  );

  it("says per step what it can write, run or touch on GitHub", () => {
    const audit = auditPolicy(loaded);
    expect(audit.steps).toEqual([
      {
        stepId: "initial.issue",
        kind: "work",
        permissionMode: "acceptEdits",
        tools: ["Read", "Write", "Edit", "Bash", "Glob", "Grep"],
        canWrite: true,
        canBash: true,
        canGithub: false,
        ignoredToolNames: [],
        mcpTools: [],
      },
      {
        stepId: "verification.issue",
        kind: "verification",
        permissionMode: "plan",
        tools: ["Read", "Glob", "Grep"],
        canWrite: false,
        canBash: false,
        canGithub: false,
        ignoredToolNames: [],
        mcpTools: [],
      },
      {
        stepId: "closure.issue",
        kind: "closure",
        permissionMode: "acceptEdits",
        tools: ["Read", "Bash", "github_close_issue"],
        canWrite: false,
        canBash: true,
        canGithub: true,
        ignoredToolNames: ["Task", "WebFetch"],
        mcpTools: [],
      },
    ]);
    expect(audit.ignoredToolNames).toEqual(["TodoWrite"]);
  });

  it("warns about ignored names and step lists that try to widen, with file and path", () => {
    const widening = loadedAgent(agentDefinition({ allowedTools: ["Read"] }), [
      step("initial.issue", "work", { allowedTools: ["Read", "Write"] }),
      step("closure.issue", "closure", { allowedTools: ["github_edit_labels"] }),
    ]);
    expect(auditPolicy(widening).problems).toEqual([
      expect.objectContaining({
        code: "TOOL-AUDIT-002",
        severity: "warning",
        file: "/agents/demo/steps_registry.json",
        path: '$.steps["initial.issue"].permissions.allowedTools',
      }),
      expect.objectContaining({
        code: "TOOL-AUDIT-002",
        message: expect.stringContaining('"github_edit_labels"'),
        path: '$.steps["closure.issue"].permissions.allowedTools',
      }),
    ]);
    expect(auditPolicy(loaded).problems.map((p) => [p.code, p.path])).toEqual([
      ["TOOL-AUDIT-001", "$.behavior.allowedTools"],
      ["TOOL-AUDIT-001", '$.steps["closure.issue"].permissions.allowedTools'],
      ["TOOL-AUDIT-001", '$.steps["closure.issue"].permissions.allowedTools'],
    ]);
  });

  it("formats a table for the CLI", () => {
    expect(formatPolicyAudit(auditPolicy(loaded))).toBe(
      [
        'Tool policy of agent "issue-solver" (permissionMode acceptEdits, GitHub integration on)',
        "",
        "STEP                KIND          MODE         WRITE  BASH  GITHUB  TOOLS",
        "initial.issue       work          acceptEdits  yes    yes   no      Read, Write, Edit, Bash, Glob, Grep",
        "verification.issue  verification  plan         no     no    no      Read, Glob, Grep",
        "closure.issue       closure       acceptEdits  no     yes   yes     Read, Bash, github_close_issue",
        "",
        "In every step: Bash boundary commands (gh issue close, gh pr merge, gh release, gh api, git push --force/--delete, …) are refused,",
        "and file tools stay inside the working directory. Issue close and label changes run only in the boundary hook.",
        "Ignored tool names (not climpt tools): TodoWrite, Task, WebFetch",
      ].join("\n"),
    );
  });
});
