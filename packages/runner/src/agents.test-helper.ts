import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { GateIntent, JsonValue } from "@climpt/model";
import { tempDirForFile } from "./temp-dirs.test-helper.ts";

export interface TestStep {
  readonly kind?: "work" | "verification" | "closure";
  /** allowedIntents, and the intent enum of the step's schema. */
  readonly intents: readonly GateIntent[];
  readonly transitions: Readonly<Record<string, JsonValue>>;
  readonly handoffFields?: readonly string[];
  readonly targetField?: string;
  readonly prompt?: string;
  /** Whether the schema requires next_action (default true). */
  readonly requireIntent?: boolean;
  readonly failFast?: boolean;
  readonly fallbackIntent?: GateIntent;
  readonly uvVariables?: readonly string[];
  /** More keys of the step as steps_registry.json writes them (`limits`, say). */
  readonly extra?: Readonly<Record<string, JsonValue>>;
}

export interface TestAgentSpec {
  readonly name: string;
  readonly entryStep: string;
  readonly steps: Readonly<Record<string, TestStep>>;
  readonly parameters?: Readonly<Record<string, JsonValue>>;
  readonly runner?: Readonly<Record<string, JsonValue>>;
  readonly registry?: Readonly<Record<string, JsonValue>>;
  /** Extra prompt files, relative to prompts/. */
  readonly prompts?: Readonly<Record<string, string>>;
}

function stepSchema(step: TestStep): JsonValue {
  return {
    type: "object",
    required: step.requireIntent === false ? [] : ["next_action"],
    properties: {
      next_action: {
        type: "object",
        required: ["action"],
        properties: {
          action: { type: "string", enum: [...step.intents] },
          reason: { type: "string" },
          target: { type: "string" },
        },
      },
    },
  };
}

/** Writes a small gate-dialect agent folder (agent.json, registry, one schema file, prompts). */
export function writeTestAgent(spec: TestAgentSpec): string {
  const root = tempDirForFile("climpt-agent-");
  const dir = path.join(root, spec.name);
  mkdirSync(path.join(dir, "schemas"), { recursive: true });
  const write = (relative: string, content: string): void => {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    writeFileSync(path.join(dir, relative), content);
  };
  write(
    "agent.json",
    JSON.stringify({
      name: spec.name,
      parameters: spec.parameters ?? {},
      runner: {
        flow: {
          systemPromptPath: "prompts/system.md",
          prompts: { registry: "steps_registry.json" },
        },
        verdict: { type: "detect:graph", config: {} },
        boundaries: { allowedTools: ["Read", "Bash"], permissionMode: "acceptEdits" },
        logging: { directory: "tmp/climpt/logs", format: "jsonl" },
        ...spec.runner,
      },
    }),
  );
  write("prompts/system.md", "You are a test agent.");
  const steps: Record<string, JsonValue> = {};
  const schemas: Record<string, JsonValue> = {};
  for (const [id, step] of Object.entries(spec.steps)) {
    const [c2 = "initial", ...rest] = id.split(".");
    const c3 = rest.join("-") || "main";
    schemas[id] = stepSchema(step);
    steps[id] = {
      stepId: id,
      stepKind:
        step.kind ??
        (c2 === "closure" ? "closure" : c2 === "verification" ? "verification" : "work"),
      c2,
      c3,
      edition: "default",
      uvVariables: [...(step.uvVariables ?? [])],
      outputSchemaRef: { file: "steps.schema.json", schema: id },
      structuredGate: {
        allowedIntents: [...step.intents],
        intentSchemaRef: "#/properties/next_action/properties/action",
        intentField: "next_action.action",
        ...(step.targetField === undefined ? {} : { targetField: step.targetField }),
        handoffFields: [...(step.handoffFields ?? [])],
        ...(step.failFast === undefined ? {} : { failFast: step.failFast }),
        ...(step.fallbackIntent === undefined ? {} : { fallbackIntent: step.fallbackIntent }),
      },
      transitions: step.transitions,
      ...step.extra,
    };
    write(`prompts/steps/${c2}/${c3}/f_default.md`, step.prompt ?? `Step ${id}.`);
  }
  write("schemas/steps.schema.json", JSON.stringify({ definitions: schemas }));
  write(
    "steps_registry.json",
    JSON.stringify({
      agentId: spec.name,
      version: "1.0.0",
      c1: "steps",
      entryStep: spec.entryStep,
      steps,
      ...spec.registry,
    }),
  );
  for (const [relative, content] of Object.entries(spec.prompts ?? {}))
    write(`prompts/${relative}`, content);
  return dir;
}

/** A structured reply of the fake API carrying `next_action`. */
export function intentReply(action: string, extra: Readonly<Record<string, JsonValue>> = {}) {
  return {
    kind: "message" as const,
    content: [
      {
        type: "text" as const,
        text: JSON.stringify({ next_action: { action, reason: "test" }, ...extra }),
      },
    ],
  };
}

/**
 * `closure.done` validated by one real command, `test -f ok.flag`, with the failure pattern
 * `no-flag` and its retry prompt: a test passes validation by letting the model `touch ok.flag`.
 */
export const FLAG_VALIDATION = {
  registry: {
    validators: {
      flag: {
        type: "command",
        command: "test -f ok.flag",
        successWhen: "exitCode:0",
        failurePattern: "no-flag",
      },
    },
    failurePatterns: {
      "no-flag": { description: "ok.flag missing", edition: "failed", adaptation: "no-flag" },
    },
    validationSteps: {
      "closure.done": {
        stepId: "closure.done",
        c2: "retry",
        c3: "done",
        validationConditions: [{ validator: "flag" }],
        onFailure: { action: "retry", maxAttempts: 2 },
      },
    },
  },
  prompts: { "steps/retry/done/f_failed_no-flag.md": "Create ok.flag with `touch ok.flag`." },
} satisfies Pick<TestAgentSpec, "registry" | "prompts">;
