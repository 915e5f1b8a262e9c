export { type PathSegment, parseDotPath, readDotPath, shortKeyOf } from "./dot-path.ts";
export { extractHandoff, type HandoffExtraction, handoffFieldsOf } from "./extract-handoff.ts";
export type { GateInterpretation, InterpretGateOptions } from "./gate-interpretation.ts";
export {
  type CheckInterpretation,
  type CheckSource,
  checkSource,
  interpretCheck,
  interpretStepCheck,
  type StepCheckOutputs,
} from "./interpret-check.ts";
export { interpretGate, isIntentAllowedForStep } from "./interpret-gate.ts";
export { normalizeIntent } from "./normalize-intent.ts";
export { coerceJsonObject } from "./parse-json-output.ts";
