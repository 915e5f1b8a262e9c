import { readFileSync } from "node:fs";
import { type AgentDefinition, issueParameterName, type Problem } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { DEFAULT_ALLOWED_TOOLS, normalizeAgent } from "./normalize-agent.ts";

function fixture(path: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${path}`, import.meta.url), "utf8"));
}

function normalized(raw: unknown, folderName?: string): AgentDefinition {
  const result = normalizeAgent(raw, { file: "agent.json", ...(folderName ? { folderName } : {}) });
  if (!result.ok) throw new Error(JSON.stringify(result.issues, null, 2));
  return result.value;
}

function problems(raw: unknown, folderName?: string): readonly Problem[] {
  const result = normalizeAgent(raw, { file: "agent.json", ...(folderName ? { folderName } : {}) });
  return result.ok ? [] : result.issues;
}

describe("normalizeAgent, flat shape", () => {
  it("reads the code-improver's flat agent.json", () => {
    const agent = normalized(fixture("seed-000/code-improver/agent.json"), "code-improver");
    expect(agent).toEqual({
      name: "code-improver",
      displayName: "Code Improver",
      description: "Agent that analyzes and improves code",
      shape: "flat",
      parameters: {},
      systemPromptPath: "prompts/system.md",
      registryPath: "steps_registry.json",
      fallbackDir: "prompts",
      verdict: { type: "detect:graph", declaredType: "stepFlow", config: {} },
      allowedTools: ["Read", "Write", "Edit", "Bash", "Glob", "Grep"],
      permissionMode: "acceptEdits",
      github: { enabled: true, labels: {}, defaultClosureAction: "close" },
      worktree: {
        enabled: false,
        finish: { merge: true, push: false, remote: "origin", createPr: false },
      },
      logging: { directory: "tmp/logs/agents/code-improver", format: "jsonl" },
      limits: {},
    } satisfies AgentDefinition);
  });

  it("reads the top-level github and worktree keys real flat folders use", () => {
    const agent = normalized({
      name: "facilitator",
      behavior: {
        completionType: "structuredSignal",
        completionConfig: { signalType: "facilitator_decision", requiredFields: ["reasoning"] },
        defaultModel: "haiku",
        boundaryHook: { command: "./notify.sh", timeout: "30s" },
      },
      github: { enabled: true, labels: { blocked: "need clearance", stale: "stale" } },
      worktree: { enabled: true, root: "../worktree" },
      actions: { enabled: true },
      limits: { maxIterations: 50, maxCostUsd: 2.5 },
    });
    expect(agent.verdict).toEqual({
      type: "detect:structured",
      declaredType: "structuredSignal",
      config: { signalType: "facilitator_decision", requiredFields: ["reasoning"] },
    });
    expect(agent.defaultModel).toBe("haiku");
    expect(agent.boundaryHook).toEqual({ command: "./notify.sh", timeoutMs: 30_000 });
    expect(agent.github).toEqual({
      enabled: true,
      labels: { blocked: "need clearance" },
      defaultClosureAction: "close",
    });
    expect(agent.worktree).toEqual({
      enabled: true,
      root: "../worktree",
      finish: { merge: true, push: false, remote: "origin", createPr: false },
    });
    expect(agent.limits).toEqual({ maxIterations: 50, maxCostUsd: 2.5 });
  });
});

describe("normalizeAgent, nested shape (runner.*)", () => {
  it("reads every runner section", () => {
    const agent = normalized(
      {
        version: "1.12.0",
        name: "iterator",
        parameters: {
          issue: { type: "number", description: "Issue", required: true, cli: "--issue" },
          iterateMax: { type: "number", default: 500 },
          baseBranch: { type: "string" },
          resume: { type: "boolean", default: false },
        },
        runner: {
          flow: {
            systemPromptPath: "./prompts/system.md",
            prompts: { registry: "steps_registry.json", fallbackDir: "prompts/" },
            defaultModel: "sonnet",
          },
          verdict: { type: "poll:state", config: { maxIterations: 500 } },
          boundaries: {
            allowedTools: ["Read", "Bash"],
            permissionMode: "plan",
            boundaryHook: "gh issue comment 1 --body done",
          },
          integrations: {
            github: {
              enabled: true,
              labels: {
                requirements: "docs",
                inProgress: "in-progress",
                completion: { add: ["done"], remove: ["in-progress"] },
              },
              defaultClosureAction: "label-only",
            },
          },
          execution: {
            worktree: { enabled: true, root: "../worktree" },
            finalize: {
              autoMerge: false,
              push: true,
              remote: "upstream",
              createPr: true,
              prTarget: "develop",
            },
          },
          logging: { directory: "tmp/logs/agents/iterator", format: "jsonl", maxFiles: 100 },
          limits: { callTimeoutMs: 120_000, maxTurnsPerStep: 40 },
          actions: { enabled: true, types: ["issue-action"] },
        },
      },
      "iterator",
    );
    expect(agent).toMatchObject({
      name: "iterator",
      version: "1.12.0",
      shape: "nested",
      systemPromptPath: "prompts/system.md",
      registryPath: "steps_registry.json",
      fallbackDir: "prompts",
      verdict: { type: "poll:state", declaredType: "poll:state", config: { maxIterations: 500 } },
      defaultModel: "sonnet",
      allowedTools: ["Read", "Bash"],
      permissionMode: "plan",
      boundaryHook: { command: "gh issue comment 1 --body done" },
      github: {
        enabled: true,
        labels: {
          requirements: "docs",
          inProgress: "in-progress",
          completion: { add: ["done"], remove: ["in-progress"] },
        },
        defaultClosureAction: "label-only",
      },
      worktree: {
        enabled: true,
        root: "../worktree",
        finish: {
          merge: false,
          push: true,
          remote: "upstream",
          createPr: true,
          prTarget: "develop",
        },
      },
      logging: { directory: "tmp/logs/agents/iterator", format: "jsonl", maxFiles: 100 },
      limits: { callTimeoutMs: 120_000, maxTurnsPerStep: 40 },
    });
    expect(agent.parameters).toEqual({
      issue: {
        name: "issue",
        type: "number",
        description: "Issue",
        required: true,
        cli: "--issue",
      },
      iterateMax: {
        name: "iterateMax",
        type: "number",
        required: false,
        default: 500,
        cli: "--iterate-max",
      },
      baseBranch: { name: "baseBranch", type: "string", required: false, cli: "--base-branch" },
      resume: { name: "resume", type: "boolean", required: false, default: false, cli: "--resume" },
    });
  });

  it("fills every default for a minimal definition", () => {
    const agent = normalized({ name: "tiny", runner: {} });
    expect(agent).toEqual({
      name: "tiny",
      shape: "nested",
      parameters: {},
      systemPromptPath: "prompts/system.md",
      registryPath: "steps_registry.json",
      verdict: { type: "detect:graph", declaredType: "detect:graph", config: {} },
      allowedTools: DEFAULT_ALLOWED_TOOLS,
      permissionMode: "default",
      github: { enabled: true, labels: {}, defaultClosureAction: "close" },
      worktree: {
        enabled: false,
        finish: { merge: true, push: false, remote: "origin", createPr: false },
      },
      logging: { directory: "tmp/logs/agents/tiny", format: "jsonl" },
      limits: {},
    } satisfies AgentDefinition);
  });

  it("lets runner.limits win over a top-level limits object, key by key", () => {
    const agent = normalized({
      name: "a",
      limits: { maxIterations: 10, maxTokens: 5000 },
      runner: { limits: { maxIterations: 20 } },
    });
    expect(agent.limits).toEqual({ maxIterations: 20, maxTokens: 5000 });
  });

  it("reads a repository-root path (.agent/<name>/…) as relative to the agent folder", () => {
    const agent = normalized({
      name: "a",
      runner: {
        flow: {
          systemPromptPath: ".agent/a/prompts/system.md",
          prompts: { registry: ".agent/a/registry.json" },
        },
      },
    });
    expect(agent.systemPromptPath).toBe("prompts/system.md");
    expect(agent.registryPath).toBe("registry.json");
  });
});

describe("verdicts", () => {
  it.each([
    ["stepMachine", "detect:graph"],
    ["stepFlow", "detect:graph"],
    ["externalState", "poll:state"],
    ["iterationBudget", "count:iteration"],
    ["keywordSignal", "detect:keyword"],
    ["structuredSignal", "detect:structured"],
    ["checkBudget", "count:check"],
    ["custom", "meta:custom"],
  ])("canonicalizes %s to %s and keeps the written spelling", (declared, canonical) => {
    const config = {
      maxIterations: 3,
      maxChecks: 2,
      completionKeyword: "DONE",
      handlerPath: "./verdict.ts",
    };
    const agent = normalized({ name: "a", runner: { verdict: { type: declared, config } } });
    expect(agent.verdict).toEqual({ type: canonical, declaredType: declared, config });
  });

  it("normalizes composite conditions recursively", () => {
    const agent = normalized({
      name: "a",
      runner: {
        verdict: {
          type: "composite",
          config: {
            operator: "or",
            conditions: [
              { type: "iterationBudget", config: { maxIterations: 10 } },
              {
                type: "meta:composite",
                config: {
                  operator: "and",
                  conditions: [
                    { type: "keywordSignal", config: { completionKeyword: "DONE" } },
                    { type: "stepMachine" },
                  ],
                },
              },
            ],
          },
        },
      },
    });
    expect(agent.verdict.type).toBe("meta:composite");
    expect(agent.verdict.conditions).toEqual([
      { type: "count:iteration", declaredType: "iterationBudget", config: { maxIterations: 10 } },
      {
        type: "meta:composite",
        declaredType: "meta:composite",
        config: {
          operator: "and",
          conditions: [
            { type: "keywordSignal", config: { completionKeyword: "DONE" } },
            { type: "stepMachine" },
          ],
        },
        conditions: [
          {
            type: "detect:keyword",
            declaredType: "keywordSignal",
            config: { completionKeyword: "DONE" },
          },
          { type: "detect:graph", declaredType: "stepMachine", config: {} },
        ],
      },
    ]);
  });

  it("reports a bad child of a composite at its own path", () => {
    const found = problems({
      name: "a",
      runner: {
        verdict: {
          type: "composite",
          config: {
            conditions: [
              { type: "count:iteration", config: { maxIterations: "ten" } },
              { type: "sometimes" },
            ],
          },
        },
      },
    });
    expect(found.map((problem) => [problem.code, problem.path])).toEqual([
      ["AC-VERDICT-003", "$.runner.verdict.config.conditions[0].config.maxIterations"],
      ["AC-VERDICT-001", "$.runner.verdict.config.conditions[1].type"],
    ]);
  });
});

describe("parameters", () => {
  it("derives kebab-case CLI flags from the name when none is declared", () => {
    const agent = normalized({
      name: "a",
      runner: {},
      parameters: {
        issue: {},
        projectOwner: {},
        baseURL: {},
        issue_number: {},
        "max iterations": {},
      },
    });
    expect(Object.values(agent.parameters).map((parameter) => parameter.cli)).toEqual([
      "--issue",
      "--project-owner",
      "--base-url",
      "--issue-number",
      "--max-iterations",
    ]);
  });

  it("keeps a parameter's issue role; without one the issue parameter is the one named issue", () => {
    const agent = normalized({
      name: "a",
      runner: {},
      parameters: { issue: { type: "string" }, ticket: { type: "number", role: "issue" } },
    });
    expect(agent.parameters.ticket?.role).toBe("issue");
    expect(agent.parameters.issue?.role).toBeUndefined();
    expect(issueParameterName(agent)).toBe("ticket");
    expect(
      issueParameterName(normalized({ name: "a", runner: {}, parameters: { issue: {} } })),
    ).toBe("issue");
    expect(
      problems(
        { name: "a", runner: {}, parameters: { on: { type: "boolean", role: "issue" } } },
        "a",
      ).map((problem) => `${problem.code} ${problem.path}`),
    ).toEqual(["AC-PARAM-005 $.parameters.on.role"]);
  });

  it("reports every problem of a file at once", () => {
    const found = problems(
      {
        name: "b",
        displayName: 7,
        parameters: {
          issue: { type: "integer", default: "x" },
          count: { type: "number", default: "3", cli: "--Count" },
          again: { type: "string", cli: "--count" },
          more: { type: "string", cli: "--count" },
        },
        runner: { verdict: { type: "sometimes" }, boundaries: { permissionMode: "yolo" } },
      },
      "a",
    );
    expect(found.map((problem) => `${problem.code} ${problem.path}`)).toEqual([
      "AC-VALID-001 $.displayName",
      "AC-VALID-002 $.name",
      "AC-PARAM-001 $.parameters.issue.type",
      "AC-PARAM-002 $.parameters.count.default",
      "AC-PARAM-004 $.parameters.count.cli",
      "AC-PARAM-003 $.parameters.more.cli",
      "AC-VALID-001 $.runner.boundaries.permissionMode",
      "AC-VERDICT-001 $.runner.verdict.type",
    ]);
    for (const problem of found) expect(problem.file).toBe("agent.json");
  });

  it("accepts agentId as the older spelling of name", () => {
    expect(normalized({ agentId: "old", runner: {} }, "old").name).toBe("old");
    expect(problems({ agentId: "old", runner: {} }, "new")[0]?.path).toBe("$.agentId");
  });
});

describe("shape problems", () => {
  it("rejects a value that is not an object without throwing", () => {
    for (const raw of [null, 3, "agent", [], undefined]) {
      const found = problems(raw);
      expect(found[0]?.code).toBe("AC-VALID-001");
      expect(found[0]?.path).toBe("$");
    }
  });

  it("asks for a name and one of the two shapes", () => {
    expect(problems({}).map((problem) => problem.code)).toEqual(["AC-VALID-003", "AC-VALID-001"]);
  });
});
