export { DEFAULT_RUN_ITERATION_CAP } from "@climpt/model";
export { resolveIterationCap } from "./advance.ts";
export { conditionText } from "./resolve-transition.ts";
export {
  type ReturnAfterValidationOptions,
  returnAfterFailedValidation,
  type ValidationRetryDecision,
} from "./return-after-validation.ts";
export { currentStep, route } from "./route.ts";
export {
  beforeCheck,
  type CheckRouteOptions,
  type CheckVerdict,
  routeCheck,
} from "./route-check.ts";
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
export {
  createRouterState,
  type RouterState,
  type StepCount,
  stepCountOf,
} from "./router-state.ts";
