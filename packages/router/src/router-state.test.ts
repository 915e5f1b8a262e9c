import { ClimptError } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { seed003Linear } from "./registries.test-helper.ts";
import { createRouterState } from "./router-state.ts";

describe("createRouterState", () => {
  it("starts at iteration 1 at the entry step with nothing counted", () => {
    expect(createRouterState(seed003Linear, "initial.issue")).toEqual({
      iteration: 1,
      stepId: "initial.issue",
      previousStepId: null,
      lastIntent: null,
      visitExecutions: 0,
      stepCounts: [],
      checkRetries: 0,
      validationAttempts: {},
      closureLeadIn: {},
      lastWorkStepId: null,
      awaitingCheck: false,
    });
  });

  it("refuses an entry step the registry lacks with SR-ENTRY-002", () => {
    let thrown: unknown;
    try {
      createRouterState(seed003Linear, "initial.missing");
    } catch (error) {
      thrown = error;
    }
    expect(ClimptError.isInstance(thrown)).toBe(true);
    expect((thrown as ClimptError).code).toBe("SR-ENTRY-002");
    expect(() => createRouterState(seed003Linear, "hasOwnProperty")).toThrow(/does not exist/);
  });
});
