/**
 * `"abort": { "target": null }` is how a definition writes "terminate" (the loader accepts it):
 * the router ends the run as AGENT_ABORTED, the same as an abort without a transition.
 */
import { describe, expect, it } from "vitest";
import { createRouter } from "./create-router.ts";
import { gateStep, registryOf } from "./registries.test-helper.ts";
import { started } from "./started.test-helper.ts";

describe("abort with a null target", () => {
  it("ends the run as AGENT_ABORTED, never as closing", () => {
    const registry = registryOf("gate", [
      gateStep("initial.a", {
        allowedIntents: ["next", "abort"],
        transitions: {
          next: { kind: "target", target: "closure.a" },
          abort: { kind: "target", target: null },
        },
      }),
      gateStep("closure.a", {
        allowedIntents: ["closing"],
        transitions: { closing: { kind: "target", target: null } },
      }),
    ]);
    const router = createRouter(registry);
    const decision = router.route(started(router, "initial.a"), {
      intent: "abort",
      reason: "nothing to do",
    });
    expect(decision).toMatchObject({
      ok: true,
      value: { kind: "abort", code: "AGENT_ABORTED", stepId: "initial.a", reason: "nothing to do" },
    });
  });
});
