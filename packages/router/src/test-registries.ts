// Test helper (not exported): normalized Registry objects for the seeds' example flows, built the
// way the registry loader produces them, so router tests do not depend on the loader.
import {
  type CheckDefinition,
  DEFAULT_PATH_TEMPLATE,
  DEFAULT_PATH_TEMPLATE_NO_ADAPTATION,
  type GateIntent,
  type Registry,
  type Step,
  type StepKind,
  type StructuredGate,
  type Transitions,
  type ValidationStep,
} from "@climpt/model";

export interface GateStepSpec {
  readonly kind?: StepKind;
  readonly allowedIntents?: readonly GateIntent[];
  readonly transitions?: Transitions;
  readonly gate?: Partial<StructuredGate>;
}

function inferKind(id: string): StepKind {
  const prefix = id.split(".")[0];
  if (prefix === "closure") return "closure";
  if (prefix === "verification") return "verification";
  if (prefix === "section") return "section";
  return "work";
}

/** A gate-dialect step, answering at `next_action.action`. */
export function gateStep(id: string, spec: GateStepSpec = {}): Step {
  const kind = spec.kind ?? inferKind(id);
  const transitions = spec.transitions ?? {};
  const allowedIntents =
    spec.allowedIntents ?? (Object.keys(transitions) as GateIntent[]).filter((i) => i !== "abort");
  const [c2 = "initial", ...rest] = id.split(".");
  return {
    id,
    kind,
    kindSource: spec.kind === undefined ? "inferred" : "declared",
    prompt: { kind: "c3l", c1: "steps", c2, c3: rest.join("-") || "issue", edition: "default" },
    uvVariables: [],
    usesStdin: false,
    outputSchemaRef: { file: "issue.schema.json", schema: id },
    ...(kind === "section"
      ? {}
      : {
          gate: {
            allowedIntents,
            intentSchemaRef: "#/properties/next_action/properties/action",
            intentField: "next_action.action",
            targetField: "next_action.details.target",
            handoffFields: [],
            failFast: true,
            ...spec.gate,
          },
        }),
    transitions,
    iterations: { min: 1, max: 1 },
    handoff: [],
    permissions: {},
  };
}

export interface CheckStepSpec {
  readonly check?: CheckDefinition;
  readonly min?: number;
  readonly max?: number;
  readonly handoff?: Step["handoff"];
}

/** A check-dialect step (seeds 000 and 002). */
export function checkStep(id: string, spec: CheckStepSpec): Step {
  return {
    id,
    kind: "work",
    kindSource: "inferred",
    prompt: { kind: "c3l", c1: "steps", c2: "phase", c3: id, edition: "default" },
    uvVariables: [],
    usesStdin: false,
    transitions: {},
    ...(spec.check === undefined ? {} : { check: spec.check }),
    iterations: { min: spec.min ?? 1, max: spec.max ?? 1 },
    handoff: spec.handoff ?? [],
    permissions: {},
  };
}

export function registryOf(
  dialect: Registry["dialect"],
  steps: readonly Step[],
  extra: Partial<Registry> = {},
): Registry {
  return {
    dialect,
    version: "2.0.0",
    c1: "steps",
    promptsBase: "prompts",
    schemasBase: "schemas",
    pathTemplate: DEFAULT_PATH_TEMPLATE,
    pathTemplateNoAdaptation: DEFAULT_PATH_TEMPLATE_NO_ADAPTATION,
    entryStep: steps[0]?.id,
    entryStepMapping: {},
    failurePatterns: {},
    validators: {},
    validationSteps: {},
    steps: Object.fromEntries(steps.map((step) => [step.id, step])),
    ...extra,
  };
}

const to = (target: string | null) => ({ kind: "target", target }) as const;
const checkPrompt = (c2: string, c3: string) =>
  ({ kind: "c3l", c1: "checks", c2, c3, edition: "default" }) as const;
const okNg = { result: "ok|ng", message: "string" };

/**
 * The original design's check flow: analyze → implement → review, with a retry and two fallbacks.
 */
export const seed000 = registryOf("check", [
  checkStep("s_a8f3", {
    min: 1,
    max: 1,
    check: {
      prompt: checkPrompt("step", "analyze"),
      responseFormat: okNg,
      onPass: { kind: "next", target: "s_b2c1" },
      onFail: { kind: "retry", maxRetries: 2 },
    },
  }),
  checkStep("s_b2c1", {
    min: 1,
    max: 5,
    check: {
      prompt: checkPrompt("step", "implement"),
      responseFormat: okNg,
      onPass: { kind: "next", target: "s_c9d4" },
      onFail: { kind: "fallback", target: "s_a8f3" },
    },
  }),
  checkStep("s_c9d4", {
    min: 1,
    max: 1,
    check: {
      prompt: checkPrompt("completion", "final"),
      responseFormat: okNg,
      onPass: { kind: "complete" },
      onFail: { kind: "fallback", target: "s_b2c1" },
    },
  }),
]);

/**
 * The original design's handoff flow: analysis (no check prompt, no format) → impl (result in its
 * own output) → review.
 */
export const seed002 = registryOf("check", [
  checkStep("s_analysis", {
    handoff: [{ key: "issue_context", path: "issue_context", description: "課題の再定義" }],
    check: { onPass: { kind: "next", target: "s_impl" } },
  }),
  checkStep("s_impl", {
    min: 1,
    max: 5,
    handoff: [
      { key: "plan", path: "plan", description: "実装戦略" },
      { key: "diff", path: "diff", description: "適用する変更" },
    ],
    check: {
      responseFormat: { result: "ok|ng" },
      onPass: { kind: "next", target: "s_review" },
      onFail: { kind: "retry", maxRetries: 2 },
    },
  }),
  checkStep("s_review", {
    handoff: [{ key: "release_notes", path: "release_notes", description: "成果の説明" }],
    check: {
      onPass: { kind: "complete" },
      onFail: { kind: "fallback", target: "s_impl" },
    },
  }),
]);

const issueValidation: ValidationStep = {
  id: "closure.issue",
  stepId: "closure.issue",
  name: "Issue Validation",
  c2: "retry",
  c3: "issue",
  conditions: [{ validator: "git-clean" }, { validator: "type-check" }],
  onFailure: { action: "retry", maxAttempts: 3 },
};

/**
 * The original design's linear gate flow (its retry variant's validation returns to
 * continuation.issue).
 */
export const seed003Linear = registryOf(
  "gate",
  [
    gateStep("initial.issue", {
      transitions: { next: to("continuation.issue"), repeat: to("initial.issue") },
    }),
    gateStep("continuation.issue", {
      transitions: {
        next: to("continuation.issue"),
        repeat: to("continuation.issue"),
        handoff: to("closure.issue"),
      },
    }),
    gateStep("closure.issue", {
      transitions: { closing: to(null), repeat: to("closure.issue") },
    }),
  ],
  {
    entryStepMapping: { "poll:state": "initial.issue" },
    validationSteps: { "closure.issue": issueValidation },
  },
);

/**
 * The original design's branching flow: preparation, review and re-execution branches around one
 * closure step.
 */
export const seed003Branching = registryOf("gate", [
  gateStep("initial.project.preparation", {
    transitions: {
      next: to("continuation.project.preparation"),
      handoff: to("initial.project.review"),
    },
  }),
  gateStep("continuation.project.preparation", {
    transitions: {
      next: to("continuation.project.preparation"),
      handoff: to("initial.project.review"),
    },
  }),
  gateStep("initial.project.review", {
    transitions: {
      next: to("continuation.project.review"),
      repeat: to("initial.project.again"),
      handoff: to("initial.project.closure"),
    },
  }),
  gateStep("continuation.project.review", {
    transitions: {
      next: to("continuation.project.review"),
      repeat: to("initial.project.again"),
      handoff: to("initial.project.closure"),
    },
  }),
  gateStep("initial.project.again", {
    transitions: {
      next: to("continuation.project.again"),
      handoff: to("initial.project.review"),
    },
  }),
  gateStep("continuation.project.again", {
    transitions: { handoff: to("initial.project.review") },
  }),
  gateStep("initial.project.closure", {
    kind: "closure",
    transitions: { closing: to(null) },
  }),
]);
