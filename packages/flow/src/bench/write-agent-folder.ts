/**
 * Writes a generated registry (`generateRegistry`) to disk as a real gate-dialect agent folder:
 * agent.json, steps_registry.json, one schema file with a definition per step, and one prompt
 * file per step. The load benchmark reads it back with `loadAgent`, and the workspace benchmark
 * (`pnpm bench`) runs it, so the numbers of both come from the same files. Test-only: not
 * exported from the package.
 */

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { C3lPromptRef, JsonValue, Registry, Step, Transition } from "@climpt/model";

export interface AgentFolderOptions {
  /** The agent's name, also the folder's name under `parentDir`. Default `bench-chain`. */
  readonly name?: string;
  /** Keep the registry's validators and validation steps (default true). */
  readonly withValidation?: boolean;
  /** `boundaries.allowedTools` of agent.json. Default: fix-bug's six tools. */
  readonly allowedTools?: readonly string[];
  /** `limits.maxIterations` of agent.json, when given. */
  readonly maxIterations?: number;
}

/** What a step's output must carry for its gate: the intent and the `result` it hands off. */
export function stepOutputSchema(step: Step): JsonValue {
  const handoffKeys = step.handoff.map((field) => field.key);
  return {
    type: "object",
    required: handoffKeys.length === 0 ? ["next_action"] : ["next_action", "result"],
    properties: {
      next_action: {
        type: "object",
        required: ["action"],
        properties: {
          action: { type: "string", enum: [...(step.gate?.allowedIntents ?? [])] },
          reason: { type: "string" },
        },
      },
      result: {
        type: "object",
        required: handoffKeys,
        properties: Object.fromEntries(handoffKeys.map((key) => [key, { type: "string" }])),
      },
    },
  };
}

function rawTransition(transition: Transition): JsonValue {
  return transition.kind === "target"
    ? { target: transition.target }
    : { condition: transition.condition, targets: { ...transition.targets } };
}

function rawStep(step: Step): JsonValue {
  const prompt = step.prompt as C3lPromptRef;
  const gate = step.gate;
  return {
    stepId: step.id,
    stepKind: step.kind,
    c2: prompt.c2,
    c3: prompt.c3,
    edition: prompt.edition,
    uvVariables: [...step.uvVariables],
    outputSchemaRef: { file: "steps.schema.json", schema: step.id },
    structuredGate: {
      allowedIntents: [...(gate?.allowedIntents ?? [])],
      intentSchemaRef: "#/properties/next_action/properties/action",
      intentField: "next_action.action",
      handoffFields: [...(gate?.handoffFields ?? [])],
      failFast: gate?.failFast ?? true,
    },
    transitions: Object.fromEntries(
      Object.entries(step.transitions).map(([intent, transition]) => [
        intent,
        rawTransition(transition as Transition),
      ]),
    ),
  };
}

/** The prompt names every UV variable the step declares, so resolving it substitutes each one. */
function promptText(step: Step): string {
  const reads = step.uvVariables.map((name) => `- ${name}: {uv-${name}}`).join("\n");
  return `# ${step.id}\n\nDo the work of step ${step.id}.\n${reads === "" ? "" : `\nHanded over:\n${reads}\n`}`;
}

function rawRegistry(registry: Registry, name: string, withValidation: boolean): JsonValue {
  const steps = Object.values(registry.steps);
  const validators = withValidation ? Object.values(registry.validators) : [];
  const validationSteps = withValidation ? Object.values(registry.validationSteps) : [];
  return {
    agentId: name,
    version: registry.version,
    c1: registry.c1,
    entryStep: registry.entryStep ?? steps[0]?.id ?? null,
    entryStepMapping: { ...registry.entryStepMapping },
    steps: Object.fromEntries(steps.map((step) => [step.id, rawStep(step)])),
    validators: Object.fromEntries(
      validators.map((validator) => [
        validator.id,
        {
          type: "command",
          command: validator.command,
          successWhen: validator.successWhen,
          failurePattern: validator.failurePattern,
        },
      ]),
    ),
    failurePatterns: Object.fromEntries(
      validators.map((validator) => [
        validator.failurePattern,
        {
          description: `${validator.id} failed`,
          edition: "failed",
          adaptation: validator.failurePattern,
          params: [],
        },
      ]),
    ),
    validationSteps: Object.fromEntries(
      validationSteps.map((entry) => [
        entry.id,
        {
          stepId: entry.stepId,
          ...(entry.c2 === undefined ? {} : { c2: entry.c2 }),
          ...(entry.c3 === undefined ? {} : { c3: entry.c3 }),
          validationConditions: entry.conditions.map((condition) => ({
            validator: condition.validator,
          })),
          onFailure: { ...entry.onFailure },
        },
      ]),
    ),
  };
}

/**
 * Writes `registry` as the agent folder `<parentDir>/<name>` (replacing one that exists) and
 * returns its path. Every step gets the output schema `stepOutputSchema` and a prompt file.
 */
export function writeAgentFolder(
  registry: Registry,
  parentDir: string,
  options: AgentFolderOptions = {},
): string {
  const name = options.name ?? "bench-chain";
  const dir = path.join(parentDir, name);
  rmSync(dir, { recursive: true, force: true });
  const write = (relative: string, content: string): void => {
    const file = path.join(dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  };
  write(
    "agent.json",
    JSON.stringify({
      name,
      version: "1.0.0",
      parameters: {},
      runner: {
        flow: {
          systemPromptPath: "prompts/system.md",
          prompts: { registry: "steps_registry.json" },
          defaultModel: "haiku",
        },
        verdict: { type: "detect:graph", config: {} },
        boundaries: {
          allowedTools: [
            ...(options.allowedTools ?? ["Read", "Write", "Edit", "Bash", "Glob", "Grep"]),
          ],
          permissionMode: "acceptEdits",
        },
        logging: { directory: "tmp/climpt/logs", format: "jsonl" },
        ...(options.maxIterations === undefined
          ? {}
          : { limits: { maxIterations: options.maxIterations } }),
      },
    }),
  );
  write("prompts/system.md", `You are ${name}, a generated benchmark agent.\n`);
  const steps = Object.values(registry.steps);
  write(
    "schemas/steps.schema.json",
    JSON.stringify({
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: Object.fromEntries(steps.map((step) => [step.id, stepOutputSchema(step)])),
    }),
  );
  write(
    "steps_registry.json",
    JSON.stringify(rawRegistry(registry, name, options.withValidation ?? true)),
  );
  for (const step of steps) {
    const prompt = step.prompt as C3lPromptRef;
    write(
      `prompts/${registry.c1}/${prompt.c2}/${prompt.c3}/f_${prompt.edition}.md`,
      promptText(step),
    );
  }
  return dir;
}
