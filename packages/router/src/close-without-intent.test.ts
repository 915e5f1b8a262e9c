import type { Step } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { createRouter } from "./create-router.ts";
import { gateStep, registryOf } from "./registries.test-helper.ts";
import { stepCountOf } from "./router-state.ts";
import { started } from "./started.test-helper.ts";

/** triager's shape: a closure step with no gate and no transitions, the entry of the run. */
function gateless(id: string): Step {
  const { gate: _gate, ...step } = gateStep(id);
  return { ...step, transitions: {} };
}

describe("closeWithoutIntent", () => {
  const registry = registryOf("gate", [gateless("closure.triage"), gateless("initial.work")]);
  const router = createRouter(registry, { iterationCap: 2 });

  it("records the closure step's execution and starts the completion chain", () => {
    const decided = router.closeWithoutIntent(started(router, "closure.triage"));
    expect(decided.ok).toBe(true);
    if (!decided.ok) return;
    expect(decided.value).toMatchObject({ kind: "closing", stepId: "closure.triage" });
    expect(decided.value.state.iteration).toBe(1);
    expect(stepCountOf(decided.value.state, "closure.triage").executions).toBe(1);
    // A refusal by the verdict runs the closure step again as the next iteration, within the cap.
    const again = router.returnAfterFailedValidation(decided.value.state, "closure.triage");
    expect(again.ok && again.value.stepId).toBe("closure.triage");
    expect(again.ok && again.value.state.iteration).toBe(2);
  });

  it("refuses a step of another kind with SR-TRANS-019", () => {
    const refused = router.closeWithoutIntent(started(router, "initial.work"));
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.issues[0]).toMatchObject({
      code: "SR-TRANS-019",
      path: '$.steps["initial.work"].structuredGate',
    });
  });
});
