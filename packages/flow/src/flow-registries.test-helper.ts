/**
 * Test-only builders for normalized registries, and the example flows of both dialects as
 * `Registry` values. Not exported from the package: analysis tests build registries in memory so
 * they do not depend on the loader.
 */
import type {
  CheckOnFail,
  GateIntent,
  HandoffField,
  IterationBounds,
  Registry,
  RegistryDialect,
  Step,
  StepKind,
  Transition,
  Transitions,
  ValidationOnFailure,
  ValidationStep,
  ValidatorDefinition,
} from "@climpt/model";
import { registryOf as registryOfSteps, stepOf } from "@climpt/model/testing";

/** `"x"` → `{target: "x"}`, `null` → terminal, anything else as given. */
export type TransitionSpec = string | null | Transition;

function transition(spec: TransitionSpec): Transition {
  if (spec === null || typeof spec === "string") return { kind: "target", target: spec };
  return spec;
}

export function conditional(condition: string, targets: Record<string, string>): Transition {
  return { kind: "conditional", condition, targets };
}

function handoffFields(keys: readonly string[]): HandoffField[] {
  return keys.map((key) => ({ key, path: key }));
}

export interface GateStepSpec {
  /** Defaults to the kind inferred from the id prefix. */
  readonly kind?: StepKind;
  readonly intents: readonly GateIntent[];
  readonly transitions?: Partial<Record<GateIntent, TransitionSpec>>;
  readonly handoff?: readonly string[];
  readonly uvVariables?: readonly string[];
  readonly targetField?: string;
  readonly iterations?: IterationBounds;
}

/** A gate-dialect step. */
export function gateStep(id: string, spec: GateStepSpec): Step {
  const transitions: Partial<Record<GateIntent, Transition>> = {};
  for (const [intent, target] of Object.entries(spec.transitions ?? {}) as [
    GateIntent,
    TransitionSpec,
  ][]) {
    transitions[intent] = transition(target);
  }
  const [c2 = "steps", c3 = "step"] = id.split(".");
  return stepOf(id, {
    ...(spec.kind === undefined ? {} : { kind: spec.kind }),
    prompt: { kind: "c3l", c1: "steps", c2, c3, edition: "default" },
    uvVariables: spec.uvVariables ?? [],
    gate: {
      allowedIntents: spec.intents,
      intentSchemaRef: "#/properties/next_action/properties/action",
      intentField: "next_action.action",
      handoffFields: (spec.handoff ?? []).map((key) => `result.${key}`),
      failFast: true,
      ...(spec.targetField === undefined ? {} : { targetField: spec.targetField }),
    },
    transitions: transitions as Transitions,
    iterations: spec.iterations ?? { min: 1, max: 1 },
    handoff: handoffFields(spec.handoff ?? []),
  });
}

/** A section step: a prompt fragment with no flow. */
export function sectionStep(id: string): Step {
  return stepOf(id, {
    kind: "section",
    kindSource: "inferred",
    prompt: { kind: "c3l", c1: "steps", c2: "section", c3: id, edition: "default" },
  });
}

export interface CheckStepSpec {
  /** A step id, or `complete`. */
  readonly onPass: string;
  readonly onFail?: { readonly retry: number } | { readonly fallback: string };
  readonly iterations?: IterationBounds;
  readonly handoff?: readonly string[];
  readonly uvVariables?: readonly string[];
}

/** A check-dialect step. */
export function checkStep(id: string, spec: CheckStepSpec): Step {
  let onFail: CheckOnFail | undefined;
  if (spec.onFail !== undefined) {
    onFail =
      "retry" in spec.onFail
        ? { kind: "retry", maxRetries: spec.onFail.retry }
        : { kind: "fallback", target: spec.onFail.fallback };
  }
  return stepOf(id, {
    kind: "work",
    kindSource: "inferred",
    prompt: { kind: "c3l", c1: "steps", c2: "phase", c3: id, edition: "default" },
    uvVariables: spec.uvVariables ?? [],
    check: {
      responseFormat: { result: "ok|ng", message: "string" },
      onPass:
        spec.onPass === "complete" ? { kind: "complete" } : { kind: "next", target: spec.onPass },
      ...(onFail === undefined ? {} : { onFail }),
    },
    iterations: spec.iterations ?? { min: 1, max: 1 },
    handoff: handoffFields(spec.handoff ?? []),
  });
}

export function validator(
  id: string,
  command: string,
  failurePattern: string,
): ValidatorDefinition {
  return {
    id,
    type: "command",
    command,
    successWhen: "exitCode:0",
    success: { kind: "exitCode", code: 0 },
    failurePattern,
    extractParams: {},
  };
}

export function validationStep(
  stepId: string,
  validators: readonly string[],
  onFailure: ValidationOnFailure = { action: "retry", maxAttempts: 3 },
): ValidationStep {
  return {
    id: stepId,
    stepId,
    c2: "retry",
    c3: stepId.split(".")[1] ?? stepId,
    conditions: validators.map((id) => ({ validator: id })),
    onFailure,
  };
}

export interface RegistrySpec {
  readonly dialect?: RegistryDialect;
  readonly entryStep?: string;
  readonly entryStepMapping?: Record<string, string>;
  readonly validators?: readonly ValidatorDefinition[];
  readonly validationSteps?: readonly ValidationStep[];
}

export function registryOf(steps: readonly Step[], spec: RegistrySpec = {}): Registry {
  return registryOfSteps(steps, {
    dialect: spec.dialect ?? (steps.some((step) => step.check !== undefined) ? "check" : "gate"),
    ...(spec.entryStep === undefined ? {} : { entryStep: spec.entryStep }),
    entryStepMapping: spec.entryStepMapping ?? {},
    validators: Object.fromEntries((spec.validators ?? []).map((v) => [v.id, v])),
    validationSteps: Object.fromEntries((spec.validationSteps ?? []).map((v) => [v.id, v])),
  });
}

// ---------------------------------------------------------------------------------------------
// The example flows of both dialects

/**
 * The original design's check flow: analyze (retry ≤2) → implement (iterations ≤5, fallback
 * analyze) → review (fallback implement) → complete.
 */
export function seed000Registry(): Registry {
  return registryOf(
    [
      checkStep("s_a8f3", { onPass: "s_b2c1", onFail: { retry: 2 } }),
      checkStep("s_b2c1", {
        onPass: "s_c9d4",
        onFail: { fallback: "s_a8f3" },
        iterations: { min: 1, max: 5 },
      }),
      checkStep("s_c9d4", { onPass: "complete", onFail: { fallback: "s_b2c1" } }),
    ],
    { entryStep: "s_a8f3" },
  );
}

/**
 * The original design's handoff flow: analysis → implementation → review, with handoff keys and a
 * retry ≤2.
 */
export function seed002Registry(): Registry {
  return registryOf(
    [
      checkStep("s_analysis", { onPass: "s_impl", handoff: ["issue_context"] }),
      checkStep("s_impl", {
        onPass: "s_review",
        onFail: { retry: 2 },
        iterations: { min: 1, max: 5 },
        handoff: ["plan", "diff"],
        uvVariables: ["s_analysis_issue_context"],
      }),
      checkStep("s_review", {
        onPass: "complete",
        onFail: { fallback: "s_impl" },
        handoff: ["release_notes"],
        uvVariables: ["s_impl_plan", "s_impl_diff"],
      }),
    ],
    { entryStep: "s_analysis" },
  );
}

function seed003LinearSteps(): Step[] {
  return [
    gateStep("initial.issue", {
      intents: ["next", "repeat"],
      transitions: { next: "continuation.issue", repeat: "initial.issue" },
      handoff: ["understanding", "approach"],
      uvVariables: ["issue"],
    }),
    gateStep("continuation.issue", {
      intents: ["next", "repeat", "handoff"],
      transitions: {
        next: "continuation.issue",
        repeat: "continuation.issue",
        handoff: "closure.issue",
      },
      handoff: ["progress"],
      uvVariables: ["issue", "initial_issue_approach"],
    }),
    gateStep("closure.issue", {
      intents: ["closing", "repeat"],
      transitions: { closing: null, repeat: "closure.issue" },
      uvVariables: ["issue", "continuation_issue_progress"],
    }),
  ];
}

/**
 * The original design's linear gate flow: initial → continuation → closure, entered through
 * entryStepMapping.
 */
export function seed003LinearRegistry(): Registry {
  return registryOf(seed003LinearSteps(), {
    entryStepMapping: { "poll:state": "initial.issue" },
    entryStep: "initial.issue",
  });
}

/**
 * The original design's retry flow: the linear flow with `{git-clean, type-check}` validating
 * closure.issue (≤3).
 */
export function seed003RetryRegistry(): Registry {
  return registryOf(seed003LinearSteps(), {
    entryStepMapping: { "poll:state": "initial.issue" },
    validators: [
      validator("git-clean", "git status --porcelain", "git-dirty"),
      validator("type-check", "deno check", "type-error"),
    ],
    validationSteps: [validationStep("closure.issue", ["git-clean", "type-check"])],
  });
}

/** The original design's branching flow: project preparation, review and re-execution branches. */
export function seed003BranchingRegistry(): Registry {
  return registryOf(
    [
      gateStep("initial.project.preparation", {
        intents: ["next", "handoff"],
        transitions: {
          next: "continuation.project.preparation",
          handoff: "initial.project.review",
        },
      }),
      gateStep("continuation.project.preparation", {
        intents: ["next", "handoff"],
        transitions: {
          next: "continuation.project.preparation",
          handoff: "initial.project.review",
        },
      }),
      gateStep("initial.project.review", {
        intents: ["next", "repeat", "handoff"],
        transitions: {
          next: "continuation.project.review",
          repeat: "initial.project.again",
          handoff: "initial.project.closure",
        },
      }),
      gateStep("continuation.project.review", {
        intents: ["next", "repeat", "handoff"],
        transitions: {
          next: "continuation.project.review",
          repeat: "initial.project.again",
          handoff: "initial.project.closure",
        },
      }),
      gateStep("initial.project.again", {
        intents: ["next", "handoff"],
        transitions: { next: "continuation.project.again", handoff: "initial.project.review" },
      }),
      gateStep("continuation.project.again", {
        intents: ["handoff"],
        transitions: { handoff: "initial.project.review" },
      }),
      gateStep("initial.project.closure", {
        kind: "closure",
        intents: ["closing"],
        transitions: { closing: null },
      }),
    ],
    { entryStep: "initial.project.preparation" },
  );
}

/**
 * The repository's fix-bug example: implement → verify → closure, validated by git-clean and tests.
 */
export function fixBugRegistry(): Registry {
  return registryOf(
    [
      gateStep("initial.analyze", {
        intents: ["next", "repeat"],
        transitions: { next: "continuation.implement", repeat: "initial.analyze" },
        handoff: ["cause", "files", "plan"],
        uvVariables: ["issue", "task"],
      }),
      gateStep("continuation.implement", {
        intents: ["next", "repeat"],
        transitions: { next: "verification.verify", repeat: "continuation.implement" },
        handoff: ["description", "files"],
        uvVariables: [
          "issue",
          "initial_analyze_cause",
          "initial_analyze_files",
          "initial_analyze_plan",
        ],
      }),
      gateStep("verification.verify", {
        intents: ["next", "repeat"],
        transitions: { next: "closure.fix", repeat: "continuation.implement" },
        handoff: ["tests_passed", "test_summary"],
        uvVariables: ["continuation_implement_description", "continuation_implement_files"],
      }),
      gateStep("closure.fix", {
        intents: ["closing", "repeat"],
        transitions: { closing: null, repeat: "continuation.implement" },
        handoff: ["summary"],
        uvVariables: [
          "issue",
          "continuation_implement_description",
          "verification_verify_test_summary",
        ],
      }),
    ],
    {
      entryStep: "initial.analyze",
      validators: [
        validator("git-clean", "git status --porcelain", "git-dirty"),
        validator("tests", "node test/run.js", "test-failed"),
      ],
      validationSteps: [validationStep("closure.fix", ["git-clean", "tests"])],
    },
  );
}
