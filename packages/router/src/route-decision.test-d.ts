// Type tests (vitest typecheck): the router's decision unions are closed, and narrowing on
// `kind` gives each variant's own fields. A new variant or `via` value must update these.
import type { Problem, Result } from "@climpt/model";
import { describe, expectTypeOf, it } from "vitest";
import type { Router, RouterOptions } from "./create-router.ts";
import type { ValidationRetryDecision } from "./return-after-validation.ts";
import type {
  AbortDecision,
  BeforeCheckDecision,
  ClosingDecision,
  CompleteDecision,
  RouteDecision,
  RouteOptions,
  RunCheckDecision,
  StepDecision,
  StepVia,
} from "./route-decision.ts";
import type { RouterState } from "./router-state.ts";

describe("RouteDecision", () => {
  it("has exactly four kinds", () => {
    expectTypeOf<RouteDecision["kind"]>().toEqualTypeOf<
      "step" | "closing" | "complete" | "abort"
    >();
    expectTypeOf<RouteDecision>().toEqualTypeOf<
      StepDecision | ClosingDecision | CompleteDecision | AbortDecision
    >();
  });

  it("narrows on kind", () => {
    const narrow = (decision: RouteDecision) => {
      switch (decision.kind) {
        case "step":
          expectTypeOf(decision.via).toEqualTypeOf<StepVia>();
          expectTypeOf(decision.stepId).toEqualTypeOf<string>();
          return;
        case "abort":
          expectTypeOf(decision.code).toEqualTypeOf<"AGENT_ABORTED">();
          expectTypeOf(decision.reason).toEqualTypeOf<string>();
          return;
        case "closing":
        case "complete":
          expectTypeOf(decision.state).toEqualTypeOf<RouterState>();
          return;
        default:
          expectTypeOf(decision).toBeNever();
      }
    };
    expectTypeOf(narrow).parameter(0).toEqualTypeOf<RouteDecision>();
  });

  it("names every reason for a move, and no other", () => {
    expectTypeOf<StepVia>().toEqualTypeOf<
      | "next"
      | "repeat"
      | "jump"
      | "handoff"
      | "escalate"
      | "continuation"
      | "min-iterations"
      | "check-again"
      | "check-pass"
      | "check-retry"
      | "check-fallback"
      | "validation-retry"
      | "enter-closure"
    >();
    expectTypeOf<ValidationRetryDecision["via"]>().toEqualTypeOf<"validation-retry">();
    expectTypeOf<ValidationRetryDecision>().toExtend<StepDecision>();
  });

  it("beforeCheck either asks for the check or runs the step again", () => {
    expectTypeOf<BeforeCheckDecision>().toEqualTypeOf<RunCheckDecision | StepDecision>();
    expectTypeOf<BeforeCheckDecision["kind"]>().toEqualTypeOf<"check" | "step">();
  });
});

describe("Router", () => {
  it("takes the cap once, at creation, and never per call", () => {
    expectTypeOf<RouterOptions>().toHaveProperty("iterationCap");
    expectTypeOf<RouteOptions>().not.toHaveProperty("iterationCap");
    expectTypeOf<Router["returnAfterFailedValidation"]>().parameters.toEqualTypeOf<
      [RouterState, string]
    >();
    expectTypeOf<Router["beforeCheck"]>().parameters.toEqualTypeOf<[RouterState]>();
  });

  it("answers with Results whose failures are coded problems", () => {
    expectTypeOf<ReturnType<Router["route"]>>().toEqualTypeOf<Result<RouteDecision>>();
    expectTypeOf<ReturnType<Router["skipIteration"]>>().toEqualTypeOf<Result<RouterState>>();
    expectTypeOf<ReturnType<Router["enterClosure"]>>().toEqualTypeOf<StepDecision>();
    expectTypeOf<Extract<ReturnType<Router["route"]>, { ok: false }>["issues"]>().toEqualTypeOf<
      readonly Problem[]
    >();
  });
});
