import type { PermissionMode, StepKind } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { resolveToolPolicy, STEP_KIND_PERMISSION_MODES, stepPermissionMode } from "./policy.ts";
import { TOOL_NAMES, type ToolName } from "./tool-names.ts";
import { agentDefinition, step, toolboxFor, useTempDirs } from "./tools.test-helper.ts";

const FILE = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"];
const READ_ONLY = ["Read", "Glob", "Grep"];
const GITHUB = ["github_comment", "github_edit_labels", "github_close_issue"];

describe("resolveToolPolicy", () => {
  it("gives every step kind the listed file tools; verification steps run in plan mode", () => {
    const agent = agentDefinition();
    expect(resolveToolPolicy(agent, step("initial.issue", "work")).tools).toEqual(FILE);
    const verification = resolveToolPolicy(agent, step("verification.issue", "verification"));
    expect(verification.permissionMode).toBe("plan");
    expect(verification.tools).toEqual(READ_ONLY);
    expect(resolveToolPolicy(agent, step("closure.issue", "closure")).tools).toEqual(FILE);
    expect(resolveToolPolicy(agent, step("section.notes", "section")).tools).toEqual(FILE);
  });

  it("gives a closure step the GitHub tools its allowedTools name, and no others", () => {
    const agent = agentDefinition({ allowedTools: [...FILE, "github_edit_labels"] });
    const closure = resolveToolPolicy(agent, step("closure.issue", "closure"));
    expect(closure.tools).toEqual([...FILE, "github_edit_labels"]);
    expect(closure.unavailable.github_close_issue).toEqual({
      code: "TOOL-POLICY-001",
      reason: `"github_close_issue" is not in the agent's allowedTools (agent.json).`,
    });
    // Listed or not, work steps never get them.
    expect(resolveToolPolicy(agent, step("initial.issue", "work")).tools).toEqual(FILE);
  });

  it("adds listed GitHub tools to closure steps only when the integration is enabled", () => {
    const agent = agentDefinition({
      allowedTools: [...FILE, ...GITHUB],
      github: { enabled: false, labels: {}, defaultClosureAction: "close" },
    });
    const policy = resolveToolPolicy(agent, step("closure.issue", "closure"));
    expect(policy.tools).toEqual(FILE);
    expect(policy.unavailable.github_comment).toEqual({
      code: "TOOL-POLICY-001",
      reason: `the agent's GitHub integration is disabled, so closure step "closure.issue" has no GitHub tools.`,
    });
  });

  it("intersects the agent's allowedTools with the step's", () => {
    const agent = agentDefinition({ allowedTools: ["Read", "Grep", "Bash"] });
    const narrowed = resolveToolPolicy(
      agent,
      step("initial.issue", "work", { allowedTools: ["Read", "Write", "Bash"] }),
    );
    expect(narrowed.tools).toEqual(["Read", "Bash"]);
    expect(narrowed.unavailable.Write?.reason).toBe(
      `"Write" is not in the agent's allowedTools (agent.json).`,
    );
    expect(narrowed.unavailable.Grep?.reason).toBe(
      `"Grep" is not in step "initial.issue"'s permissions.allowedTools.`,
    );
  });

  it("makes plan mode read-only, in every step kind", () => {
    for (const kind of ["work", "verification", "closure"] as const) {
      const policy = resolveToolPolicy(
        agentDefinition({ permissionMode: "plan", allowedTools: [...FILE, ...GITHUB] }),
        step(`${kind}.x`, kind),
      );
      expect(policy.tools).toEqual(READ_ONLY);
      for (const name of [
        "Write",
        "Edit",
        "Bash",
        ...(kind === "closure" ? GITHUB : []),
      ] as ToolName[]) {
        expect(policy.unavailable[name]?.code).toBe("TOOL-POLICY-002");
      }
    }
  });

  it("takes the step's permissionMode first, then an agent-wide plan, then the kind's default", () => {
    // The agent's bypassPermissions does not lift a verification step out of plan mode.
    const bypass = agentDefinition({ permissionMode: "bypassPermissions" });
    expect(stepPermissionMode(bypass, step("verification.x", "verification"))).toBe("plan");
    expect(stepPermissionMode(bypass, step("initial.x", "work"))).toBe("acceptEdits");
    expect(stepPermissionMode(bypass, step("closure.x", "closure"))).toBe("acceptEdits");
    expect(
      stepPermissionMode(
        bypass,
        step("verification.x", "verification", { permissionMode: "default" }),
      ),
    ).toBe("default");
    const planAgent = agentDefinition({ permissionMode: "plan" });
    expect(stepPermissionMode(planAgent, step("initial.x", "work"))).toBe("plan");
    expect(
      resolveToolPolicy(planAgent, step("initial.x", "work", { permissionMode: "acceptEdits" }))
        .tools,
    ).toEqual(FILE);
    const editAgent = agentDefinition({ permissionMode: "acceptEdits" });
    const planStep = resolveToolPolicy(
      editAgent,
      step("initial.x", "work", { permissionMode: "plan" }),
    );
    expect(planStep.permissionMode).toBe("plan");
    expect(planStep.tools).toEqual(READ_ONLY);
    expect(STEP_KIND_PERMISSION_MODES).toEqual({
      work: "acceptEdits",
      verification: "plan",
      closure: "acceptEdits",
      section: "acceptEdits",
    });
  });

  it("treats default, acceptEdits and bypassPermissions alike: the lists decide", () => {
    for (const mode of ["default", "acceptEdits", "bypassPermissions"] as PermissionMode[]) {
      expect(
        resolveToolPolicy(
          agentDefinition({ permissionMode: mode, allowedTools: [...FILE, ...GITHUB] }),
          step("closure.x", "closure", { permissionMode: mode }),
        ).tools,
      ).toEqual([...FILE, ...GITHUB]);
    }
  });

  it("ignores tool names climpt does not have, and reports them", () => {
    const agent = agentDefinition({
      allowedTools: ["Read", "Task", "Skill", "TodoWrite", "Bash(git:*)", "Task"],
    });
    const policy = resolveToolPolicy(
      agent,
      step("initial.x", "work", { allowedTools: ["Read", "WebFetch"] }),
    );
    expect(policy.tools).toEqual(["Read"]);
    expect(policy.ignoredToolNames).toEqual([
      "Task",
      "Skill",
      "TodoWrite",
      "Bash(git:*)",
      "WebFetch",
    ]);
  });
});

describe("the policy as enforced by the toolbox: each step kind × each tool", () => {
  const tempDir = useTempDirs();

  type Scenario = {
    name: string;
    agent: Parameters<typeof agentDefinition>[0];
    permissions?: Parameters<typeof step>[2];
    expected: (kind: StepKind) => readonly string[];
    refusal: (tool: string, kind: StepKind) => string;
  };
  // Verification steps run in plan mode unless the step says otherwise.
  const listed = (kind: StepKind, tools: readonly string[]): readonly string[] =>
    kind === "verification" ? tools.filter((tool) => READ_ONLY.includes(tool)) : tools;
  const scenarios: Scenario[] = [
    {
      name: "everything allowed",
      agent: { allowedTools: [...FILE, ...GITHUB] },
      expected: (kind) => (kind === "closure" ? [...FILE, ...GITHUB] : listed(kind, FILE)),
      refusal: (tool, kind) =>
        kind === "verification" && !GITHUB.includes(tool) ? "TOOL-POLICY-002" : "TOOL-POLICY-001",
    },
    {
      name: "the file tools only",
      agent: {},
      expected: (kind) => listed(kind, FILE),
      refusal: (tool, kind) =>
        kind === "verification" && !GITHUB.includes(tool) ? "TOOL-POLICY-002" : "TOOL-POLICY-001",
    },
    {
      name: "plan mode",
      agent: { permissionMode: "plan", allowedTools: [...FILE, ...GITHUB] },
      expected: () => READ_ONLY,
      refusal: (tool, kind) =>
        GITHUB.includes(tool) && kind !== "closure" ? "TOOL-POLICY-001" : "TOOL-POLICY-002",
    },
    {
      name: "an agent allowing nothing",
      agent: { allowedTools: [] },
      expected: () => [],
      refusal: () => "TOOL-POLICY-001",
    },
    {
      name: "a step narrowed to Read",
      agent: { allowedTools: [...FILE, ...GITHUB] },
      permissions: { allowedTools: ["Read"] },
      expected: () => ["Read"],
      refusal: () => "TOOL-POLICY-001",
    },
    {
      name: "GitHub integration off",
      agent: {
        allowedTools: [...FILE, ...GITHUB],
        github: { enabled: false, labels: {}, defaultClosureAction: "close" },
      },
      expected: (kind) => listed(kind, FILE),
      refusal: (tool, kind) =>
        kind === "verification" && !GITHUB.includes(tool) ? "TOOL-POLICY-002" : "TOOL-POLICY-001",
    },
  ];

  for (const scenario of scenarios) {
    for (const kind of ["work", "verification", "closure"] as const) {
      it(`${scenario.name}, ${kind} step`, async () => {
        const dir = tempDir();
        const box = toolboxFor(dir, {
          agent: agentDefinition(scenario.agent),
          step: step(`${kind}.x`, kind, scenario.permissions ?? {}),
        });
        const expected = scenario.expected(kind);
        expect(box.definitions.map((d) => d.name)).toEqual(expected);
        for (const tool of TOOL_NAMES) {
          box.events.length = 0;
          // `{}` is invalid for every tool: a call that passes the policy fails on input, harmlessly.
          const result = await box.call(tool, {});
          expect(result.isError).toBe(true);
          if (expected.includes(tool)) {
            expect(result.content, tool).toMatch(/^TOOL-INPUT-001/);
            expect(box.events.map((e) => e.type)).toEqual(["tool_call", "tool_result"]);
          } else {
            const code = scenario.refusal(tool, kind);
            expect(result.content, tool).toMatch(new RegExp(`^${code} refused by the`));
            expect(box.events).toEqual([
              expect.objectContaining({ type: "tool_refused", tool, code }),
            ]);
          }
        }
      });
    }
  }
});
