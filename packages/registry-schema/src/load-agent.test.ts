import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { formatProblem, type JsonValue, type LoadedAgent } from "@climpt/model";
import { demoAgent, removeAgentFolders, writeAgentFolder } from "@climpt/testing";
import { afterAll, describe, expect, it } from "vitest";
import { resolveEntryStep } from "./entry-step.ts";
import { loadAgent } from "./load-agent.ts";

const fixtureDir = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

async function loaded(dir: string): Promise<LoadedAgent> {
  const result = await loadAgent(dir);
  if (!result.ok) throw new Error(result.issues.map(formatProblem).join("\n"));
  return result.value;
}

function containsRef(value: JsonValue | undefined): boolean {
  if (Array.isArray(value)) return value.some(containsRef);
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).some(([key, child]) => key === "$ref" || containsRef(child));
  }
  return false;
}

afterAll(removeAgentFolders);

describe("loadAgent on the seeds' examples", () => {
  it("loads the code-improver (flat agent.json, check dialect)", async () => {
    const agent = await loaded(fixtureDir("seed-000/code-improver"));
    expect(agent.dir).toBe(fixtureDir("seed-000/code-improver"));
    expect(agent.files).toEqual({
      agent: path.join(agent.dir, "agent.json"),
      registry: path.join(agent.dir, "steps_registry.json"),
    });
    expect(agent.agent.shape).toBe("flat");
    expect(agent.agent.verdict.type).toBe("detect:graph");
    expect(agent.registry.dialect).toBe("check");
    expect(Object.values(agent.registry.steps).map((step) => [step.id, step.kind])).toEqual([
      ["s_a8f3", "work"],
      ["s_b2c1", "work"],
      ["s_c9d4", "closure"],
    ]);
    expect(resolveEntryStep(agent.registry, agent.agent.verdict.type)).toEqual({
      ok: true,
      value: "s_a8f3",
    });
  });

  it("loads the check-dialect handoff flow", async () => {
    const agent = await loaded(fixtureDir("seed-002/handoff-flow"));
    expect(agent.agent.verdict).toEqual({
      type: "detect:graph",
      declaredType: "stepMachine",
      config: {},
    });
    expect(agent.registry.steps.s_impl?.handoff).toEqual([
      { key: "plan", path: "plan", description: "実装戦略" },
      { key: "diff", path: "diff", description: "適用する変更" },
    ]);
  });

  it("loads the gate dialect's linear issue flow with its retry / recovery configuration", async () => {
    const agent = await loaded(fixtureDir("seed-003/issue-agent"));
    const { registry } = agent;
    expect(registry).toMatchObject({
      dialect: "gate",
      agentId: "issue-agent",
      version: "1.0.0",
      c1: "steps",
      // ".agent/issue-agent/prompts" is written from the repository root.
      promptsBase: "prompts",
      schemasBase: "schemas",
      entryStepMapping: { "poll:state": "initial.issue" },
    });
    expect(resolveEntryStep(registry, agent.agent.verdict.type)).toEqual({
      ok: true,
      value: "initial.issue",
    });
    expect(agent.agent.parameters.issue).toEqual({
      name: "issue",
      type: "number",
      description: "GitHub Issue number to work on",
      required: true,
      cli: "--issue",
    });
    expect(agent.agent.parameters.baseBranch?.cli).toBe("--base-branch");
    expect(agent.agent.defaultModel).toBe("sonnet");
    expect(agent.agent.github.defaultClosureAction).toBe("label-only");

    const initial = registry.steps["initial.issue"];
    expect(initial?.kind).toBe("work");
    expect(initial?.fallbackKey).toBe("initial_issue");
    expect(initial?.handoff).toEqual([
      { key: "understanding", path: "analysis.understanding" },
      { key: "approach", path: "analysis.approach" },
    ]);
    expect(registry.steps["continuation.issue"]?.model).toBe("haiku");
    expect(registry.steps["continuation.issue"]?.transitions).toEqual({
      next: { kind: "target", target: "continuation.issue" },
      repeat: { kind: "target", target: "continuation.issue" },
      handoff: { kind: "target", target: "closure.issue" },
    });
    const closure = registry.steps["closure.issue"];
    expect(closure?.kind).toBe("closure");
    expect(closure?.gate).toMatchObject({ failFast: false, fallbackIntent: "repeat" });
    expect(closure?.transitions.closing).toEqual({ kind: "target", target: null });

    expect(registry.validators["git-clean"]).toEqual({
      id: "git-clean",
      type: "command",
      command: "git status --porcelain",
      successWhen: "empty",
      success: { kind: "empty" },
      failurePattern: "git-dirty",
      extractParams: { changedFiles: "parseChangedFiles", untrackedFiles: "parseUntrackedFiles" },
    });
    expect(registry.validators["type-check"]?.timeoutMs).toBe(600_000);
    expect(registry.failurePatterns["git-dirty"]).toEqual({
      id: "git-dirty",
      description: "Uncommitted changes present",
      edition: "failed",
      adaptation: "git-dirty",
      params: ["changedFiles", "untrackedFiles"],
    });
    expect(registry.validationSteps["closure.issue"]).toEqual({
      id: "closure.issue",
      stepId: "closure.issue",
      name: "Issue Validation",
      c2: "retry",
      c3: "issue",
      conditions: [{ validator: "git-clean" }, { validator: "type-check" }],
      onFailure: { action: "retry", maxAttempts: 3 },
    });
  });

  it("inlines every $ref of a step schema, across files and relative to the file it is in", async () => {
    const agent = await loaded(fixtureDir("seed-003/issue-agent"));
    for (const step of Object.values(agent.registry.steps)) {
      expect(step.outputSchema).toBeDefined();
      expect(containsRef(step.outputSchema)).toBe(false);
    }
    const initial = agent.registry.steps["initial.issue"]?.outputSchema;
    // common.schema.json#/$defs/stepResponse, whose own "#/$defs/status" and
    // "#/$defs/toolUsage" are resolved inside common.schema.json, not issue.schema.json.
    expect(initial).toMatchObject({
      type: "object",
      allOf: [
        {
          required: ["stepId", "status", "summary"],
          properties: {
            status: { type: "string", enum: ["completed", "in_progress", "failed"] },
            tools_used: { type: "array", items: { type: "object", required: ["name"] } },
          },
        },
      ],
      properties: {
        issue: { type: "object", required: ["issue_number"] },
        next_action: { properties: { action: { enum: ["next", "repeat"] } } },
      },
    });
    // A $ref with only annotation siblings: the annotation is laid over the target.
    expect(agent.registry.steps["continuation.issue"]?.outputSchema).toMatchObject({
      properties: {
        issue: {
          type: "object",
          required: ["issue_number"],
          description: "The issue being worked on",
        },
        // With other siblings: allOf [target] + the siblings.
        next_action: {
          allOf: [{ type: "object", required: ["action"] }],
          properties: { action: { enum: ["next", "repeat", "handoff"] } },
        },
      },
    });
    expect(initial).not.toHaveProperty("$defs");
  });

  it("loads the gate dialect's branching project flow", async () => {
    const agent = await loaded(fixtureDir("seed-003/project-agent"));
    const { steps } = agent.registry;
    const targets = Object.fromEntries(
      Object.values(steps).map((step) => [
        step.id,
        Object.fromEntries(
          Object.entries(step.transitions).map(([intent, transition]) => [
            intent,
            transition.kind === "target" ? transition.target : transition.targets,
          ]),
        ),
      ]),
    );
    expect(targets).toEqual({
      "initial.project.preparation": {
        next: "continuation.project.preparation",
        repeat: "initial.project.preparation",
        handoff: "initial.project.review",
      },
      "continuation.project.preparation": {
        next: "continuation.project.preparation",
        handoff: "initial.project.review",
      },
      "initial.project.review": {
        next: "continuation.project.review",
        repeat: "initial.project.again",
        handoff: "initial.project.closure",
      },
      "continuation.project.review": {
        next: "continuation.project.review",
        repeat: "initial.project.again",
        handoff: "initial.project.closure",
      },
      "initial.project.again": {
        next: "continuation.project.again",
        handoff: "initial.project.review",
      },
      "continuation.project.again": { handoff: "initial.project.review" },
      "initial.project.closure": { closing: null, repeat: "initial.project.closure" },
      "section.projectcontext": {},
    });
    expect(steps["initial.project.closure"]).toMatchObject({
      kind: "closure",
      kindSource: "declared",
    });
    expect(steps["section.projectcontext"]).toMatchObject({
      kind: "section",
      kindSource: "inferred",
    });
    // Sibling refs to one definition (redo / done → issueList) are not a cycle.
    expect(steps["initial.project.again"]?.outputSchema).toMatchObject({
      properties: {
        redo: { type: "array", items: { type: "integer" } },
        done: { type: "array", items: { type: "integer" } },
      },
    });
    // Handoff values of one step are uvVariables of later ones.
    expect(steps["initial.project.again"]?.uvVariables).toContain("initial_project_review_verdict");
  });

  it("loads the entryStepMapping example: one entry per verdict type", async () => {
    const agent = await loaded(fixtureDir("seed-003/iterator"));
    expect(agent.agent.verdict).toMatchObject({
      type: "poll:state",
      declaredType: "externalState",
    });
    expect(agent.registry.promptsBase).toBe("prompts");
    expect(agent.registry.entryStepMapping).toEqual({
      "poll:state": "initial.polling",
      "count:iteration": "initial.iteration",
    });
    expect(resolveEntryStep(agent.registry, "poll:state")).toEqual({
      ok: true,
      value: "initial.polling",
    });
    expect(resolveEntryStep(agent.registry, "count:iteration")).toEqual({
      ok: true,
      value: "initial.iteration",
    });
    // Kinds come from c2; schemas are looked up by bare name in $defs.
    expect(agent.registry.steps["continuation.polling"]?.outputSchema).toMatchObject({
      properties: {
        next_action: { properties: { action: { enum: ["next", "repeat", "handoff"] } } },
      },
    });
    expect(Object.values(agent.registry.steps).map((step) => step.kind)).toEqual([
      "work",
      "work",
      "closure",
      "work",
      "work",
      "closure",
    ]);
  });
});

describe("loadAgent problems", () => {
  it("reports a missing folder", async () => {
    const result = await loadAgent(path.join(fixtureDir("seed-003"), "no-such-agent"));
    expect(result.ok ? [] : result.issues.map((problem) => problem.code)).toEqual(["SR-LOAD-001"]);
  });

  it("reports problems of agent.json and the registry together", async () => {
    const files = demoAgent();
    files.agent.displayName = 1;
    files.registry.entryStep = "nowhere";
    const result = await loadAgent(await writeAgentFolder(files));
    expect(result.ok ? [] : result.issues.map((problem) => problem.code)).toEqual([
      "AC-VALID-001",
      "SR-ENTRY-002",
    ]);
  });

  it("reports a registry entry that does not cover the agent's verdict type", async () => {
    const files = demoAgent();
    delete files.registry.entryStep;
    files.registry.entryStepMapping = { "count:iteration": "initial.issue" };
    const result = await loadAgent(await writeAgentFolder(files));
    expect(result.ok ? [] : result.issues.map((p) => `${p.code} ${p.path}`)).toEqual([
      "SR-ENTRY-001 $.entryStepMapping",
    ]);
  });

  it("still reads the registry when agent.json is missing", async () => {
    const files = demoAgent();
    files.registry.entryStep = "nowhere";
    const dir = await writeAgentFolder(files);
    await rm(path.join(dir, "agent.json"));
    const result = await loadAgent(dir);
    expect(result.ok ? [] : result.issues.map((problem) => problem.code)).toEqual([
      "SR-LOAD-001",
      "SR-ENTRY-002",
    ]);
  });

  it("does not follow a symlink out of the agent folder", async () => {
    const files = demoAgent();
    const dir = await writeAgentFolder(files);
    const outside = path.join(path.dirname(dir), "outside.schema.json");
    await writeFile(outside, JSON.stringify(files.schemas["issue.schema.json"]));
    await rm(path.join(dir, "schemas", "issue.schema.json"));
    await symlink(outside, path.join(dir, "schemas", "issue.schema.json"));
    const result = await loadAgent(dir);
    expect(result.ok ? [] : [...new Set(result.issues.map((problem) => problem.code))]).toEqual([
      "SR-LOAD-007",
    ]);
  });

  it("reports a schema file that is not JSON, naming the line", async () => {
    const files = demoAgent();
    const dir = await writeAgentFolder(files);
    await mkdir(path.join(dir, "schemas"), { recursive: true });
    await writeFile(path.join(dir, "schemas", "issue.schema.json"), '{\n  "definitions": {\n}');
    const result = await loadAgent(dir);
    const problem = result.ok ? undefined : result.issues[0];
    expect(problem?.code).toBe("SR-LOAD-004");
    expect(problem?.message).toContain("is not valid JSON (line 3");
  });

  it("accepts input_text only on steps that read stdin", async () => {
    const files = demoAgent();
    const steps = files.registry.steps as Record<string, Record<string, unknown>>;
    const initial = steps["initial.issue"] as Record<string, unknown>;
    initial.uvVariables = ["issue", "input_text"];
    const rejected = await loadAgent(await writeAgentFolder(files));
    expect(rejected.ok ? [] : rejected.issues.map((problem) => problem.code)).toEqual([
      "SR-VALID-006",
    ]);
    initial.usesStdin = true;
    expect((await loadAgent(await writeAgentFolder(files))).ok).toBe(true);
  });
});
