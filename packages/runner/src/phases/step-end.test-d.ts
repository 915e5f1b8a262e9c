// Type tests (vitest typecheck): a journaled step_end is the StepEnd record the runner builds and
// resume's fold rebuilds. The union itself is tested in @climpt/protocol.
import { describe, expectTypeOf, it } from "vitest";
import { type StepEndFold, type StepEndRecord, stepEndRecord } from "../journal/step-end-record.ts";
import { applyStepEnd, type RunState } from "../run/run-state.ts";
import type { StepEndEvent } from "../run-event.ts";
import type { StepEnd } from "./step-end.ts";
import type { RunEnding, StepOutcome } from "./step-outcome.ts";

describe("StepEnd", () => {
  it("is stored as step_end in its journal shape", () => {
    expectTypeOf(stepEndRecord).returns.toEqualTypeOf<StepEndRecord>();
  });

  it("is what applyStepEnd folds; resume rebuilds it from the journal with StepEndFold", () => {
    expectTypeOf(applyStepEnd).parameters.toEqualTypeOf<[RunState, StepEnd]>();
    expectTypeOf(applyStepEnd).returns.toEqualTypeOf<RunState>();
    expectTypeOf<StepEndFold["apply"]>().parameters.toEqualTypeOf<[StepEndRecord]>();
    expectTypeOf<StepEndFold["apply"]>().returns.toEqualTypeOf<StepEnd>();
    expectTypeOf<StepEndEvent>().toExtend<StepEndRecord>();
  });
});

describe("StepOutcome", () => {
  it("either continues with a step end or ends the run", () => {
    expectTypeOf<StepOutcome["kind"]>().toEqualTypeOf<"continue" | "end">();
    expectTypeOf<Extract<StepOutcome, { kind: "continue" }>["stepEnd"]>().toEqualTypeOf<StepEnd>();
    expectTypeOf<Extract<StepOutcome, { kind: "end" }>["ending"]>().toEqualTypeOf<RunEnding>();
  });
});
