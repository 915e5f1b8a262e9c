import { describe, expect, it } from "vitest";
import type { AgentDefinition } from "./model.ts";
import { resolveRunIterationCap } from "./run-cap.ts";

function agent(
  limits: AgentDefinition["limits"],
  config: AgentDefinition["verdict"]["config"],
): Pick<AgentDefinition, "limits" | "verdict"> {
  return { limits, verdict: { type: "poll:state", declaredType: "poll:state", config } };
}

describe("resolveRunIterationCap", () => {
  it("takes --max-iterations over limits over the verdict's maxIterations", () => {
    const all = agent({ maxIterations: 7 }, { maxIterations: 500 });
    expect(resolveRunIterationCap(all, { dialect: "gate" }, 3)).toEqual({
      cap: 3,
      source: "option",
    });
    expect(resolveRunIterationCap(all, { dialect: "gate" })).toEqual({ cap: 7, source: "limits" });
    expect(resolveRunIterationCap(agent({}, { maxIterations: 500 }), { dialect: "gate" })).toEqual({
      cap: 500,
      source: "verdict",
    });
  });

  it("defaults to 20 for the gate dialect and 100 for the check dialect", () => {
    expect(resolveRunIterationCap(agent({}, {}), { dialect: "gate" })).toEqual({
      cap: 20,
      source: "default",
    });
    expect(resolveRunIterationCap(agent({}, {}), { dialect: "check" })).toEqual({
      cap: 100,
      source: "default",
    });
  });

  it("skips values that are not positive integers", () => {
    const odd = agent({}, { maxIterations: "many" });
    expect(resolveRunIterationCap(odd, { dialect: "gate" }, 0)).toEqual({
      cap: 20,
      source: "default",
    });
  });
});
