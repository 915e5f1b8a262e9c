// Test helper (not exported): normalized Registry objects for the original's example flows, built the
// way the registry loader produces them, so router tests do not depend on the loader.
import type {
  CheckDefinition,
  GateIntent,
  Registry,
  Step,
  StepKind,
  StructuredGate,
  Transitions,
  ValidationStep,
} from "@climpt/model";
import { registryOf as registryOfSteps, stepOf } from "@climpt/model/testing";

export interface GateStepSpec {
  readonly kind?: StepKind;
  readonly allowedIntents?: readonly GateIntent[];
  readonly transitions?: Transitions;
  readonly gate?: Partial<StructuredGate>;
}

/** A gate-dialect step, answering at `next_action.action`. */
export function gateStep(id: string, spec: GateStepSpec = {}): Step {
  const base = stepOf(id, spec.kind === undefined ? {} : { kind: spec.kind });
  const transitions = spec.transitions ?? {};
  const allowedIntents =
    spec.allowedIntents ?? (Object.keys(transitions) as GateIntent[]).filter((i) => i !== "abort");
  return {
    ...base,
    outputSchemaRef: { file: "issue.schema.json", schema: id },
    ...(base.kind === "section"
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
  };
}

export interface CheckStepSpec {
  readonly check?: CheckDefinition;
  readonly min?: number;
  readonly max?: number;
  readonly handoff?: Step["handoff"];
}

/** A check-dialect step. */
export function checkStep(id: string, spec: CheckStepSpec): Step {
  return stepOf(id, {
    kind: "work",
    kindSource: "inferred",
    prompt: { kind: "c3l", c1: "steps", c2: "phase", c3: id, edition: "default" },
    ...(spec.check === undefined ? {} : { check: spec.check }),
    // Written `iterations` bound the step's executions over the run, as the loader marks them.
    iterations:
      spec.min === undefined && spec.max === undefined
        ? { min: 1, max: 1 }
        : { min: spec.min ?? 1, max: spec.max ?? 1, declared: true },
    handoff: spec.handoff ?? [],
  });
}

export function registryOf(
  dialect: Registry["dialect"],
  steps: readonly Step[],
  extra: Partial<Registry> = {},
): Registry {
  return registryOfSteps(steps, { dialect, version: "2.0.0", entryStep: steps[0]?.id, ...extra });
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
