import { ok } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { createRouter } from "./create-router.ts";
import { seed003Linear } from "./registries.test-helper.ts";
import { createRouterState } from "./router-state.ts";

describe("createRouterState", () => {
  it("starts at iteration 1 at the entry step with nothing counted", () => {
    expect(createRouterState(seed003Linear, "initial.issue")).toEqual(
      ok({
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
      }),
    );
  });

  it("refuses an entry step the registry lacks with SR-ENTRY-002, returned, not thrown", () => {
    for (const entry of ["initial.missing", "hasOwnProperty"]) {
      const refused = createRouterState(seed003Linear, entry);
      expect(refused.ok).toBe(false);
      expect(!refused.ok && refused.issues.map((issue) => [issue.code, issue.path])).toEqual([
        ["SR-ENTRY-002", "$.entryStep"],
      ]);
    }
    const router = createRouter(seed003Linear);
    expect(() => router.start("initial.missing")).not.toThrow();
    expect(router.start("initial.missing").ok).toBe(false);
  });
});
