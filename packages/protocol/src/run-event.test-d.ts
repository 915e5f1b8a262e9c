// Type tests (vitest typecheck): the run event union is closed, every event is stamped the same
// way, and a journaled step_end is the StepEnd record in its journal shape.
import type { StepVia } from "@climpt/model";
import { describe, expectTypeOf, it } from "vitest";
import type {
  RouteEvent,
  RunEvent,
  RunEventInput,
  RunEventType,
  StepEndEvent,
} from "./run-event.ts";
import type { StepEndRecord } from "./step-end.ts";
import type { StepExecutionResult } from "./step-executor.ts";

describe("RunEvent", () => {
  it("has exactly these event types", () => {
    expectTypeOf<RunEventType>().toEqualTypeOf<
      | "run_start"
      | "run_resume"
      | "step_start"
      | "prompt_resolved"
      | "model_request"
      | "model_response"
      | "tool_call"
      | "tool_result"
      | "tool_refused"
      | "program"
      | "step_failed"
      | "gate"
      | "check"
      | "route"
      | "validator"
      | "ledger"
      | "verdict"
      | "boundary_hook_start"
      | "boundary_hook"
      | "step_changes"
      | "step_end"
      | "budget"
      | "notice"
      | "run_end"
    >();
  });

  it("narrows on type, and a switch over every type is exhaustive", () => {
    const describeEvent = (event: RunEvent): string => {
      switch (event.type) {
        case "step_end":
          expectTypeOf(event).toEqualTypeOf<StepEndEvent>();
          return event.history.transition;
        case "route":
          expectTypeOf(event.via).toEqualTypeOf<StepVia | null>();
          return event.decision;
        case "run_start":
        case "run_resume":
        case "step_start":
        case "prompt_resolved":
        case "model_request":
        case "model_response":
        case "tool_call":
        case "tool_result":
        case "tool_refused":
        case "program":
        case "step_failed":
        case "gate":
        case "check":
        case "validator":
        case "ledger":
        case "verdict":
        case "boundary_hook_start":
        case "boundary_hook":
        case "step_changes":
        case "budget":
        case "notice":
        case "run_end":
          return event.type;
        default:
          expectTypeOf(event).toBeNever();
          return event;
      }
    };
    expectTypeOf(describeEvent).parameter(0).toEqualTypeOf<RunEvent>();
  });

  it("is stamped with runId, time and seq; the input to emit carries none of them", () => {
    expectTypeOf<RunEvent>().toHaveProperty("runId").toEqualTypeOf<string>();
    expectTypeOf<RunEvent>().toHaveProperty("seq").toEqualTypeOf<number>();
    expectTypeOf<RunEventInput>().not.toHaveProperty("seq");
    expectTypeOf<RunEventInput>().not.toHaveProperty("runId");
    expectTypeOf<RunEventInput["type"]>().toEqualTypeOf<RunEventType>();
  });

  it("routes with the router's decisions and reasons only", () => {
    expectTypeOf<RouteEvent["decision"]>().toEqualTypeOf<
      "step" | "closing" | "complete" | "abort" | "validation-retry"
    >();
  });
});

describe("StepEndEvent", () => {
  it("is the StepEnd record in its journal shape, minus the stamp", () => {
    expectTypeOf<Omit<StepEndEvent, "type" | "runId" | "time" | "seq">>().toEqualTypeOf<
      Omit<StepEndRecord, never>
    >();
  });
});

describe("StepExecutor", () => {
  it("reports expected failures as data", () => {
    expectTypeOf<Extract<StepExecutionResult, { ok: false }>["reason"]>().toEqualTypeOf<
      "schema" | "failed"
    >();
  });
});
