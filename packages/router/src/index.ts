export { DEFAULT_RUN_ITERATION_CAP } from "@climpt/model";
export { createRouter, type Router, type RouterOptions } from "./create-router.ts";
export { defineRegistry, type RegistrySpec, type StepSpec } from "./define-registry.ts";
export { firstClosureStep } from "./enter-closure.ts";
export { conditionText } from "./resolve-transition.ts";
export type { ValidationRetryDecision } from "./return-after-validation.ts";
export { currentStep } from "./route.ts";
export type { CheckVerdict } from "./route-check.ts";
export type {
  AbortDecision,
  BeforeCheckDecision,
  ClosingDecision,
  CompleteDecision,
  RouteDecision,
  RouteInput,
  RouteOptions,
  RunCheckDecision,
  StepDecision,
  StepVia,
} from "./route-decision.ts";
export { type RouterState, type StepCount, stepCountOf } from "./router-state.ts";
export {
  exceededMaxAttempts,
  type FoundValidationStep,
  findValidationStep,
  type ValidationLookup,
} from "./validation-step.ts";
