import { describe, expect, it } from "vitest";
import { agentDefinition, step } from "./claude-code.test-helper.ts";
import { resolveToolAccess } from "./tool-access.ts";

const GITHUB_ON = { enabled: true, labels: {}, defaultClosureAction: "close" } as const;
/** A closure step gets only the GitHub tools its agent lists (docs/design.md#tools-and-their-boundary). */
const GITHUB_TOOLS = ["github_comment", "github_edit_labels", "github_close_issue"];

describe("resolveToolAccess", () => {
  it("gives a work step the agent's tools, canonical names, and no GitHub tools", () => {
    const access = resolveToolAccess(
      agentDefinition({
        allowedTools: ["Read", "Edit", "Task", "github_close_issue"],
        github: GITHUB_ON,
      }),
      step("initial.issue", "work"),
    );
    expect(access.builtinTools).toEqual(["Read", "Edit", "Agent"]);
    expect(access.climptTools).toEqual([]);
    expect(access.refusalFor("Task")).toBeUndefined();
    expect(access.refusalFor("Bash")).toMatchObject({ code: "TOOL-POLICY-001" });
    expect(access.refusalFor("mcp__climpt__github_close_issue")).toMatchObject({
      code: "TOOL-POLICY-001",
      reason: expect.stringContaining("closure steps"),
    });
    expect(access.refusalFor("StructuredOutput")).toBeUndefined();
  });

  it("adds the GitHub tools the agent lists in a closure step when the integration is on, and only then", () => {
    const closure = step("closure.issue", "closure");
    const on = resolveToolAccess(
      agentDefinition({ github: GITHUB_ON, allowedTools: ["Read", ...GITHUB_TOOLS] }),
      closure,
    );
    expect(on.climptTools).toEqual(["github_comment", "github_edit_labels", "github_close_issue"]);
    expect(on.refusalFor("mcp__climpt__github_comment")).toBeUndefined();
    const off = resolveToolAccess(agentDefinition(), closure);
    expect(off.climptTools).toEqual([]);
    expect(off.refusalFor("mcp__climpt__github_comment")?.reason).toContain("disabled");
  });

  it("narrows to the step's allowedTools and says why a tool is missing", () => {
    const access = resolveToolAccess(
      agentDefinition({ allowedTools: ["Read", "Bash", "WebFetch"] }),
      step("initial.issue", "work", { allowedTools: ["Read", "WebSearch"] }),
    );
    expect(access.builtinTools).toEqual(["Read"]);
    expect(access.refusalFor("Bash")?.reason).toContain("permissions.allowedTools");
    // The step cannot widen the agent's list.
    expect(access.refusalFor("WebSearch")?.reason).toContain("agent's allowedTools");
  });

  it("keeps only reading tools under plan mode, the step's mode winning over the agent's", () => {
    const agent = agentDefinition({
      allowedTools: [
        "Read",
        "Write",
        "Bash",
        "Grep",
        "Agent",
        "WebFetch",
        "mcp__docs",
        ...GITHUB_TOOLS,
      ],
      github: GITHUB_ON,
    });
    const plan = resolveToolAccess(
      agent,
      step("closure.issue", "closure", { permissionMode: "plan" }),
    );
    expect(plan.permissionMode).toBe("plan");
    expect(plan.builtinTools).toEqual(["Read", "Grep", "WebFetch"]);
    expect(plan.climptTools).toEqual([]);
    for (const name of [
      "Write",
      "Bash",
      "Agent",
      "mcp__docs__search",
      "mcp__climpt__github_close_issue",
    ]) {
      expect(plan.refusalFor(name), name).toMatchObject({ code: "TOOL-POLICY-002" });
    }
    const agentPlan = resolveToolAccess(
      agentDefinition({ ...agent, permissionMode: "plan" }),
      step("initial.issue", "work", { permissionMode: "acceptEdits" }),
    );
    expect(agentPlan.builtinTools).toContain("Write");
  });

  it("turns specifiers into allow rules and marks the tool as granted only through them", () => {
    const access = resolveToolAccess(
      agentDefinition({ allowedTools: ["Read", "Bash(git status:*)", "Bash(npm test)"] }),
      step("initial.issue", "work"),
    );
    expect(access.builtinTools).toEqual(["Read", "Bash"]);
    expect(access.allowRules).toEqual(["Bash(git status:*)", "Bash(npm test)"]);
    expect([...access.ruleOnlyTools]).toEqual(["Bash"]);
    // A plain entry next to the rules grants the whole tool.
    const plain = resolveToolAccess(
      agentDefinition({ allowedTools: ["Bash", "Bash(git:*)"] }),
      step("initial.issue", "work"),
    );
    expect([...plain.ruleOnlyTools]).toEqual([]);
    // A step may narrow a plain tool to rules.
    const narrowed = resolveToolAccess(
      agentDefinition({ allowedTools: ["Bash"] }),
      step("initial.issue", "work", { allowedTools: ["Bash(git:*)"] }),
    );
    expect(narrowed.allowRules).toEqual(["Bash(git:*)"]);
    expect([...narrowed.ruleOnlyTools]).toEqual(["Bash"]);
  });

  it("admits the user's MCP tools that allowedTools names, by tool, server or wildcard", () => {
    const access = resolveToolAccess(
      agentDefinition({ allowedTools: ["mcp__docs", "mcp__jira__get_issue", "mcp__wiki__*"] }),
      step("initial.issue", "work"),
    );
    expect(access.mcpPatterns).toEqual(["mcp__docs", "mcp__jira__get_issue", "mcp__wiki__*"]);
    expect(access.refusalFor("mcp__docs__search")).toBeUndefined();
    expect(access.refusalFor("mcp__jira__get_issue")).toBeUndefined();
    expect(access.refusalFor("mcp__jira__delete_issue")).toMatchObject({ code: "TOOL-POLICY-001" });
    expect(access.refusalFor("mcp__wiki__page")).toBeUndefined();
    expect(access.refusalFor("mcp__docsextra__x")).toMatchObject({ code: "TOOL-POLICY-001" });
  });
});
