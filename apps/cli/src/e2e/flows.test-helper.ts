import { initFiles } from "./project.test-helper.ts";

/**
 * A gate-dialect triage agent: initial.triage reads the task and either goes `next` through a
 * conditional transition on its handoff `kind` (bug → continuation.fix, docs → continuation.docs,
 * anything else → default continuation.fix), or `jump`s to the step its output names.
 */
export function triageAgentFiles(): Record<string, string | object> {
  const nextAction = (intents: string[], withTarget = false) => ({
    type: "object",
    additionalProperties: false,
    required: ["action"],
    properties: {
      action: { type: "string", enum: intents },
      ...(withTarget ? { target: { type: "string" } } : {}),
    },
  });
  const gate = (intents: string[], handoffFields: string[], targetField?: string) => ({
    allowedIntents: intents,
    intentSchemaRef: "#/properties/next_action/properties/action",
    intentField: "next_action.action",
    ...(targetField === undefined ? {} : { targetField }),
    handoffFields,
    failFast: true,
  });
  const work = (id: string, c2: string, c3: string) => ({
    stepId: id,
    stepKind: "work",
    c2,
    c3,
    edition: "default",
    outputSchemaRef: { file: "triage.schema.json", schema: "work" },
    structuredGate: gate(["handoff"], ["result.summary"]),
    transitions: { handoff: { target: "closure.done" } },
  });
  return {
    "agent.json": {
      name: "triage",
      description: "Routes a task by kind.",
      parameters: { task: { type: "string", required: true, cli: "--task" } },
      runner: {
        flow: {
          systemPromptPath: "prompts/system.md",
          prompts: { registry: "steps_registry.json" },
        },
        verdict: { type: "detect:graph", config: {} },
        boundaries: { allowedTools: ["Read"], permissionMode: "default" },
        logging: { directory: "tmp/climpt/logs/triage", format: "jsonl" },
      },
    },
    "steps_registry.json": {
      agentId: "triage",
      version: "1.0.0",
      c1: "steps",
      entryStep: "initial.triage",
      steps: {
        "initial.triage": {
          stepId: "initial.triage",
          stepKind: "work",
          c2: "initial",
          c3: "triage",
          edition: "default",
          uvVariables: ["task"],
          outputSchemaRef: { file: "triage.schema.json", schema: "triage" },
          structuredGate: gate(["next", "jump"], ["triage.kind"], "next_action.target"),
          transitions: {
            next: {
              condition: "kind",
              targets: {
                bug: "continuation.fix",
                docs: "continuation.docs",
                default: "continuation.fix",
              },
            },
          },
        },
        "continuation.fix": work("continuation.fix", "continuation", "fix"),
        "continuation.docs": work("continuation.docs", "continuation", "docs"),
        "closure.done": {
          stepId: "closure.done",
          stepKind: "closure",
          c2: "closure",
          c3: "done",
          edition: "default",
          outputSchemaRef: { file: "triage.schema.json", schema: "closure" },
          structuredGate: gate(["closing"], []),
          transitions: { closing: { target: null } },
        },
      },
    },
    "schemas/triage.schema.json": {
      definitions: {
        triage: {
          type: "object",
          additionalProperties: false,
          required: ["triage", "next_action"],
          properties: {
            triage: {
              type: "object",
              additionalProperties: false,
              required: ["kind"],
              properties: { kind: { type: "string", enum: ["bug", "docs", "other"] } },
            },
            next_action: nextAction(["next", "jump"], true),
          },
        },
        work: {
          type: "object",
          additionalProperties: false,
          required: ["result", "next_action"],
          properties: {
            result: {
              type: "object",
              additionalProperties: false,
              required: ["summary"],
              properties: { summary: { type: "string" } },
            },
            next_action: nextAction(["handoff"]),
          },
        },
        closure: {
          type: "object",
          additionalProperties: false,
          required: ["next_action"],
          properties: { next_action: nextAction(["closing"]) },
        },
      },
    },
    "prompts/system.md": "You triage tasks.\n",
    "prompts/steps/initial/triage/f_default.md": "Triage: {uv-task}\n",
    "prompts/steps/continuation/fix/f_default.md": "Fix it.\n",
    "prompts/steps/continuation/docs/f_default.md": "Write the docs.\n",
    "prompts/steps/closure/done/f_default.md": "Finish.\n",
  };
}

/**
 * The check-dialect scaffold (climpt init --dialect check) with its review falling back to the
 * work step. A written `iterations.max` bounds a step's executions over the whole run (its
 * `onFail.retry` executions aside), so both steps may run twice: one fallback cycle completes.
 */
export function checkAgentFiles(name: string): Record<string, string | object> {
  const files: Record<string, string | object> = { ...initFiles(name, "check") };
  const registry = JSON.parse(files["steps_registry.json"] as string) as {
    entryStep: string;
    steps: Record<
      string,
      { iterations: object; check: { onFail: object; onPass: { next?: string } } }
    >;
  };
  const work = registry.entryStep;
  const review = registry.steps[work]?.check.onPass.next as string;
  const workStep = registry.steps[work];
  const reviewStep = registry.steps[review];
  if (workStep === undefined || reviewStep === undefined) throw new Error("unexpected scaffold");
  workStep.iterations = { min: 1, max: 2 };
  reviewStep.iterations = { min: 1, max: 2 };
  reviewStep.check.onFail = { fallback: work };
  files["steps_registry.json"] = registry;
  return files;
}
