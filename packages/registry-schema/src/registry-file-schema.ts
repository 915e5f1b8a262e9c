/**
 * valibot schemas of steps_registry.json as users write it, in both dialects. These are the
 * single source of the raw shape: `normalizeRegistry` reads fields with them, and the shipped
 * `steps_registry.schema.json` is generated from them. Every object is loose: real folders carry
 * extra keys (`type`, `$comment`, …) that are kept out of the model, never errors.
 */

import { GATE_INTENTS } from "@climpt/model";
import * as v from "valibot";
import { durationSchema } from "./duration.ts";
import { jsonValueSchema } from "./json-value.ts";

const text = (description: string) => v.pipe(v.string(), v.description(description));
const nonEmpty = (description: string) =>
  v.pipe(v.string(), v.minLength(1, "a non-empty string"), v.description(description));

export const STEP_KIND_VALUES = ["work", "verification", "closure", "section"] as const;
export const PERMISSION_MODE_VALUES = [
  "default",
  "plan",
  "acceptEdits",
  "bypassPermissions",
] as const;

const intentSchema = v.picklist(GATE_INTENTS);

// ---------------------------------------------------------------------------------------------
// Shared by both dialects

export const outputSchemaRefSchema = v.looseObject({
  file: nonEmpty("Schema file, relative to the registry's schemas folder (schemasBase)."),
  schema: nonEmpty(
    'JSON pointer into the file ("#/definitions/initial.issue") or a bare name looked up in definitions, then $defs, then the top level.',
  ),
});

/** Keys a step of either dialect may carry. */
const commonStepEntries = {
  name: v.optional(text("Human-readable step name.")),
  description: v.optional(text("What the step does.")),
  stepKind: v.optional(
    v.pipe(
      v.picklist(STEP_KIND_VALUES),
      v.description(
        "work | verification | closure | section. Gate dialect: inferred from c2 / the id prefix when absent. Check dialect: closure when check.onPass is {complete: true}, else work.",
      ),
    ),
  ),
  model: v.optional(text('Model for this step: "opus", "sonnet", "haiku" or a full model id.')),
  fallbackKey: v.optional(text("Built-in prompt template used when the prompt file is missing.")),
  uvVariables: v.optional(
    v.pipe(
      v.array(v.string()),
      v.description(
        "Variables the prompt needs: agent parameters, runtime variables, or handoff values <step id with . as _>_<key>.",
      ),
    ),
  ),
  usesStdin: v.optional(
    v.pipe(v.boolean(), v.description("Whether the prompt reads {input_text} from stdin.")),
    false,
  ),
  outputSchemaRef: v.optional(outputSchemaRefSchema),
  allowedTools: v.optional(
    v.pipe(v.array(v.string()), v.description("Narrows the agent's allowedTools for this step.")),
  ),
  permissionMode: v.optional(v.picklist(PERMISSION_MODE_VALUES)),
  limits: v.optional(
    v.pipe(
      v.looseObject({
        maxIterations: v.optional(
          v.pipe(
            v.number(),
            v.integer(),
            v.minValue(1),
            v.description("Executions of this step over the whole run."),
          ),
        ),
        maxTokens: v.optional(
          v.pipe(
            v.number(),
            v.minValue(0),
            v.description("Input + output tokens of this step's model calls over the whole run."),
          ),
        ),
        maxCostUsd: v.optional(
          v.pipe(
            v.number(),
            v.minValue(0),
            v.description("Cost in USD of this step's model calls over the whole run."),
          ),
        ),
      }),
      v.description(
        "This step's own budgets, counted over the whole run (resume included). Reaching one sends the run to the registry's onBudget step, else ends it with AGENT_BUDGET_EXCEEDED.",
      ),
    ),
  ),
};

// ---------------------------------------------------------------------------------------------
// Gate dialect (docs/design.md#two-dialects-one-model)

export const structuredGateSchema = v.looseObject({
  allowedIntents: v.pipe(
    v.array(intentSchema),
    v.description("Intents this step may emit; a subset of its step kind's intents."),
  ),
  intentSchemaRef: v.pipe(
    v.string(),
    v.description(
      'Internal JSON pointer ("#/...") to the intent enum inside the step\'s output schema.',
    ),
  ),
  intentField: nonEmpty('Dot path to the intent in the output, e.g. "next_action.action".'),
  targetField: v.optional(text("Dot path to the target step id of a jump.")),
  handoffFields: v.optional(
    v.pipe(v.array(v.string()), v.description("Dot paths of output fields handed to later steps.")),
    [],
  ),
  targetMode: v.optional(v.picklist(["explicit", "dynamic", "conditional"])),
  failFast: v.optional(
    v.pipe(v.boolean(), v.description("Stop the run on an uninterpretable intent (default true).")),
    true,
  ),
  fallbackIntent: v.optional(
    v.pipe(intentSchema, v.description("Intent used when failFast is false and none is found.")),
  ),
});

export const targetTransitionSchema = v.looseObject({
  target: v.pipe(
    v.nullable(v.string()),
    v.description(
      'Next step id, or null (only for "closing", which starts the completion chain, and "abort", which ends the run as AGENT_ABORTED).',
    ),
  ),
});

export const conditionalTransitionSchema = v.looseObject({
  condition: nonEmpty("Handoff key whose value selects the target."),
  targets: v.pipe(
    v.record(v.string(), v.string()),
    v.description('Value → step id; "default" is used when no value matches.'),
  ),
});

export const transitionSchema = v.union([targetTransitionSchema, conditionalTransitionSchema]);

/**
 * Intent → transition. A closed object: a key that is not one of the seven intents is an error
 * (SR-TRANS-013), since no output could ever take it.
 */
export const transitionsSchema = v.pipe(
  v.strictObject(
    Object.fromEntries(GATE_INTENTS.map((intent) => [intent, v.optional(transitionSchema)])) as {
      [K in (typeof GATE_INTENTS)[number]]: v.OptionalSchema<typeof transitionSchema, undefined>;
    },
  ),
  v.description("Intent → transition. Keys must be intents."),
);

/**
 * `runner` on a closure step: a program that runs instead of the model (the original runtime's
 * subprocess closure, used by its merger agent).
 */
export const subprocessRunnerSchema = v.looseObject({
  command: nonEmpty(
    "Program to run (found on PATH or relative to the working directory); no shell. It runs inside the OS sandbox unless the agent turns it off.",
  ),
  args: v.optional(
    v.pipe(
      v.array(v.string()),
      v.description(`Arguments; \${context.<name>} is replaced by the agent parameter <name>.`),
    ),
    [],
  ),
  timeout: v.optional(
    v.pipe(durationSchema, v.description('Milliseconds, or "30s" / "5m" (default 30 seconds).')),
  ),
  env: v.optional(
    v.pipe(
      v.array(v.string()),
      v.description(
        'Environment variables the program gets although they are secret, by name (e.g. ["NPM_TOKEN"]). It runs in the OS sandbox, which passes no secret it was not given here.',
      ),
    ),
  ),
});

export const gateStepSchema = v.looseObject({
  stepId: v.optional(text("Must equal the step's key in steps.")),
  c2: nonEmpty("C3L second segment (initial, continuation, closure, section, …)."),
  c3: nonEmpty("C3L third segment (the domain, e.g. issue)."),
  edition: v.optional(text("C3L edition."), "default"),
  adaptation: v.optional(text("C3L adaptation.")),
  ...commonStepEntries,
  structuredGate: v.optional(structuredGateSchema),
  transitions: v.optional(transitionsSchema),
  runner: v.optional(subprocessRunnerSchema),
});

// ---------------------------------------------------------------------------------------------
// Check dialect (seeds 000, 002)

export const c3lPromptRefSchema = v.looseObject({
  c1: v.optional(text('C3L first segment (default: the registry\'s c1, "steps").')),
  c2: nonEmpty("C3L second segment."),
  c3: nonEmpty("C3L third segment."),
  edition: v.optional(text("C3L edition."), "default"),
  adaptation: v.optional(text("C3L adaptation.")),
});

export const pathPromptRefSchema = v.looseObject({
  path: nonEmpty("Prompt file, relative to the registry's prompts folder."),
});

export const promptRefSchema = v.union([pathPromptRefSchema, c3lPromptRefSchema]);

export const iterationsSchema = v.looseObject({
  min: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Minimum runs (default 1).")),
  ),
  max: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Maximum runs (default 1).")),
  ),
});

export const onPassNextSchema = v.looseObject({ next: nonEmpty("Step id to continue with.") });
export const onPassCompleteSchema = v.looseObject({
  complete: v.pipe(v.literal(true), v.description("The agent is done when the check passes.")),
});
export const onFailRetrySchema = v.looseObject({
  retry: v.pipe(v.boolean(), v.description("Run the same step again.")),
  maxRetries: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(0), v.description("0 means unlimited.")),
  ),
});
export const onFailFallbackSchema = v.looseObject({
  fallback: nonEmpty("Step id to fall back to."),
});

export const checkSchema = v.looseObject({
  prompt: v.optional(promptRefSchema),
  responseFormat: v.optional(
    v.pipe(
      v.record(v.string(), v.string()),
      v.description('Field → description, e.g. {"result": "ok|ng", "message": "string"}.'),
    ),
  ),
  onPass: v.union([onPassNextSchema, onPassCompleteSchema]),
  onFail: v.optional(v.union([onFailRetrySchema, onFailFallbackSchema])),
});

export const checkHandoffSchema = v.looseObject({
  key: nonEmpty("Handoff key; later steps read it as uv-<step id>_<key>."),
  description: v.optional(text("What the value is.")),
});

export const checkStepSchema = v.looseObject({
  id: v.optional(text("Must equal the step's key in steps (s_<hex> by convention).")),
  prompt: promptRefSchema,
  iterations: v.optional(iterationsSchema),
  check: checkSchema,
  handoff: v.optional(v.array(checkHandoffSchema)),
  ...commonStepEntries,
});

// ---------------------------------------------------------------------------------------------
// Validation (gate dialect top level, accepted in both)

export const validatorSchema = v.looseObject({
  type: v.optional(v.literal("command"), "command"),
  description: v.optional(text("What the validator checks.")),
  command: nonEmpty(
    "Shell command, run with sh -c in the run's working directory, inside the OS sandbox unless the agent turns it off.",
  ),
  // Both optional: a validator may be just a command whose exit code decides (`npm test`), its
  // retry prompt then f_failed.md or the built-in text with the command's output.
  successWhen: v.optional(
    v.pipe(
      v.string(),
      v.description(
        '"empty", "exitCode:N", "contains:TEXT" or "matches:REGEX". Default "exitCode:0": exit 0 passes.',
      ),
    ),
  ),
  failurePattern: v.optional(
    nonEmpty(
      "Name of the failure pattern that selects the retry prompt. Without one, the retry prompt is f_failed.md, else the built-in text with the command's output.",
    ),
  ),
  extractParams: v.optional(
    v.pipe(
      v.record(v.string(), v.string()),
      v.description("Parameter name → extractor name (e.g. parseChangedFiles)."),
    ),
    {},
  ),
  timeout: v.optional(
    v.pipe(durationSchema, v.description('Milliseconds, or "30s" / "5m" (default 5 minutes).')),
  ),
  timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  env: v.optional(
    v.pipe(
      v.array(v.string()),
      v.description(
        'Environment variables the command gets although they are secret, by name (e.g. ["NPM_TOKEN"]). It runs in the OS sandbox, which passes no secret it was not given here.',
      ),
    ),
  ),
  baseline: v.optional(
    v.pipe(
      v.picklist(["compare", "off"]),
      v.description(
        '"compare": when the command fails, run it on the merge base too; failures (tests, type errors, lint errors its extractors name) already there do not block, only the ones the change introduced. "off" (default): every failure blocks.',
      ),
    ),
  ),
});

export const failurePatternSchema = v.looseObject({
  description: v.optional(text("What failed (default: the pattern's name).")),
  edition: nonEmpty("Edition of the retry prompt."),
  adaptation: v.optional(text("Adaptation of the retry prompt.")),
  params: v.optional(
    v.pipe(v.array(v.string()), v.description("Extracted parameters passed to the prompt.")),
    [],
  ),
  fallback: v.optional(
    v.pipe(
      v.literal("built-in"),
      v.description(
        "With no retry prompt file for this pattern, send the built-in retry text (it names the validator, its command and output). Without it a missing prompt is reported by climpt validate and climpt run.",
      ),
    ),
  ),
});

export const validationConditionSchema = v.looseObject({
  validator: nonEmpty("Name of a validator in validators."),
  params: v.optional(v.record(v.string(), jsonValueSchema)),
});

export const validationOnFailureSchema = v.looseObject({
  action: v.optional(v.picklist(["retry", "abort", "skip"]), "retry"),
  maxAttempts: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description("Retry prompts before giving up."),
    ),
  ),
});

export const validationStepSchema = v.looseObject({
  stepId: v.optional(text("The closure step this validation belongs to (default: the key).")),
  name: v.optional(text("Human-readable name.")),
  c2: v.optional(text("C3L c2 of the retry prompts (e.g. retry).")),
  c3: v.optional(text("C3L c3 of the retry prompts (e.g. the domain).")),
  validationConditions: v.optional(v.array(validationConditionSchema)),
  postLLMConditions: v.optional(
    v.pipe(
      v.array(validationConditionSchema),
      v.description("Later spelling of validationConditions in the original runtime."),
    ),
  ),
  onFailure: v.optional(validationOnFailureSchema),
});

// ---------------------------------------------------------------------------------------------
// Top level

/** Top-level keys, shared by both dialects; `steps` is typed per dialect below. */
export const registryTopLevelEntries = {
  $schema: v.optional(v.string()),
  agentId: v.optional(text("Agent id; must match the agent folder's name.")),
  version: v.optional(text("Version of the registry (semver).")),
  c1: v.optional(text('C3L first segment of every step prompt (default "steps").')),
  basePath: v.optional(text('Prompt folder, relative to the agent folder (default "prompts").')),
  userPromptsBase: v.optional(
    text(
      'Prompt folder (gate dialect name of basePath); ".agent/<name>/prompts" is read from the repository root.',
    ),
  ),
  schemasBase: v.optional(text('Schema folder, relative to the agent folder (default "schemas").')),
  pathTemplate: v.optional(text("C3L path template with adaptation.")),
  pathTemplateNoAdaptation: v.optional(text("C3L path template without adaptation.")),
  entryStep: v.optional(text("Step the run starts at when entryStepMapping has no entry.")),
  entryStepMapping: v.optional(
    v.pipe(
      v.record(v.string(), v.string()),
      v.description("Verdict type (either spelling) → entry step id."),
    ),
  ),
  failurePatterns: v.optional(v.record(v.string(), failurePatternSchema)),
  validators: v.optional(v.record(v.string(), validatorSchema)),
  validationSteps: v.optional(v.record(v.string(), validationStepSchema)),
  onBudget: v.optional(
    nonEmpty(
      "The closure step a run goes to when a budget is reached (agent.json limits, --max-cost, --max-tokens, --max-iterations, a step's limits) instead of failing; it runs once.",
    ),
  ),
};

export const gateRegistrySchema = v.looseObject({
  ...registryTopLevelEntries,
  steps: v.record(v.string(), gateStepSchema),
});

export const checkRegistrySchema = v.looseObject({
  ...registryTopLevelEntries,
  steps: v.record(v.string(), checkStepSchema),
});

/** steps_registry.json: one of the two dialects (see detectRegistryDialect for the rule). */
export const registryFileSchema = v.union([gateRegistrySchema, checkRegistrySchema]);

export type RawGateRegistry = v.InferInput<typeof gateRegistrySchema>;
export type RawCheckRegistry = v.InferInput<typeof checkRegistrySchema>;
export type RawRegistry = v.InferInput<typeof registryFileSchema>;
export type RawGateStep = v.InferInput<typeof gateStepSchema>;
export type RawCheckStep = v.InferInput<typeof checkStepSchema>;
export type RawStructuredGate = v.InferInput<typeof structuredGateSchema>;
export type RawTransition = v.InferInput<typeof transitionSchema>;
export type RawCheck = v.InferInput<typeof checkSchema>;
export type RawPromptRef = v.InferInput<typeof promptRefSchema>;
export type RawValidator = v.InferInput<typeof validatorSchema>;
export type RawFailurePattern = v.InferInput<typeof failurePatternSchema>;
export type RawValidationStep = v.InferInput<typeof validationStepSchema>;
export type RawOutputSchemaRef = v.InferInput<typeof outputSchemaRefSchema>;
export type RawSubprocessRunner = v.InferInput<typeof subprocessRunnerSchema>;
