import { isPlainObject, type RegistryDialect, recordEntries } from "@climpt/model";

/** Step keys only the check dialect (seeds 000/002) uses. */
export const CHECK_DIALECT_STEP_KEYS = ["id", "prompt", "check", "iterations", "handoff"] as const;

/** Step keys only the gate dialect (docs/design.md#two-dialects-one-model) uses. */
export const GATE_DIALECT_STEP_KEYS = [
  "stepId",
  "c2",
  "c3",
  "edition",
  "adaptation",
  "structuredGate",
  "transitions",
  "runner",
] as const;

export interface DialectDetection {
  readonly dialect: RegistryDialect;
  /** Set when steps use keys of both dialects: one example of each. */
  readonly mixed?: {
    readonly checkStep: string;
    readonly checkKey: string;
    readonly gateStep: string;
    readonly gateKey: string;
  };
}

/**
 * Which dialect a steps_registry.json is written in. The rule:
 * 1. a step carrying a check-only key (`id`, `prompt`, `check`, `iterations`, `handoff`) counts
 *    for the check dialect; a step carrying a gate-only key (`stepId`, `c2`, `c3`, `edition`,
 *    `adaptation`, `structuredGate`, `transitions`, `runner`) counts for the gate dialect;
 * 2. the dialect more steps count for wins (a tie goes to the gate dialect); when both have
 *    steps, the registry is mixed and the loader reports it (SR-LOAD-006) at a step of the
 *    losing dialect, whose foreign keys are then ignored;
 * 3. no step says (no steps, or only shared keys like `name`): the check dialect when the top
 *    level has `basePath`, otherwise the gate dialect.
 * Top-level keys (`validators`, `entryStepMapping`, …) are accepted in both dialects and do not
 * decide.
 */
export function detectRegistryDialect(raw: unknown): DialectDetection {
  const root = isPlainObject(raw) ? raw : {};
  const steps = isPlainObject(root.steps) ? root.steps : {};
  let checkSteps = 0;
  let gateSteps = 0;
  let check: { step: string; key: string } | undefined;
  let gate: { step: string; key: string } | undefined;
  for (const [stepKey, step] of recordEntries(steps)) {
    if (!isPlainObject(step)) continue;
    const checkKey = CHECK_DIALECT_STEP_KEYS.find((key) => Object.hasOwn(step, key));
    const gateKey = GATE_DIALECT_STEP_KEYS.find((key) => Object.hasOwn(step, key));
    if (checkKey !== undefined) {
      checkSteps++;
      check ??= { step: stepKey, key: checkKey };
    }
    if (gateKey !== undefined) {
      gateSteps++;
      gate ??= { step: stepKey, key: gateKey };
    }
  }
  const dialect: RegistryDialect =
    checkSteps === 0 && gateSteps === 0
      ? Object.hasOwn(root, "basePath")
        ? "check"
        : "gate"
      : checkSteps > gateSteps
        ? "check"
        : "gate";
  if (check === undefined || gate === undefined) return { dialect };
  return {
    dialect,
    mixed: { checkStep: check.step, checkKey: check.key, gateStep: gate.step, gateKey: gate.key },
  };
}
