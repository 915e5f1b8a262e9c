import { describe, expect, it } from "vitest";
import { agentOf, registryOf, stepOf } from "../testing.ts";

describe("test builders", () => {
  it("stepOf infers the kind from the id prefix, and an explicit kind counts as declared", () => {
    expect(stepOf("closure.issue")).toMatchObject({ kind: "closure", kindSource: "inferred" });
    expect(stepOf("verification.issue").kind).toBe("verification");
    expect(stepOf("section.rules").kind).toBe("section");
    expect(stepOf("initial.issue").kind).toBe("work");
    expect(stepOf("s_a8f3", { kind: "closure" })).toMatchObject({
      kind: "closure",
      kindSource: "declared",
    });
  });

  it("stepOf derives the C3L prompt from the id", () => {
    expect(stepOf("initial.issue").prompt).toEqual({
      kind: "c3l",
      c1: "steps",
      c2: "initial",
      c3: "issue",
      edition: "default",
    });
    expect(stepOf("initial.project.preparation").prompt).toMatchObject({
      c2: "initial",
      c3: "project-preparation",
    });
    expect(stepOf("s_a8f3").prompt).toMatchObject({ c2: "s_a8f3", c3: "issue" });
  });

  it("registryOf keeps the steps in the order given, keyed by id", () => {
    const registry = registryOf([stepOf("initial.issue"), stepOf("closure.issue")], {
      entryStep: "initial.issue",
    });
    expect(Object.keys(registry.steps)).toEqual(["initial.issue", "closure.issue"]);
    expect(registry.entryStep).toBe("initial.issue");
    expect(registry.dialect).toBe("gate");
  });

  it("agentOf replaces whole fields and keeps the rest", () => {
    const agent = agentOf({ name: "fix-bug", limits: { maxIterations: 3 } });
    expect(agent.name).toBe("fix-bug");
    expect(agent.limits).toEqual({ maxIterations: 3 });
    expect(agent.github.enabled).toBe(false);
    expect(agent.verdict.type).toBe("detect:graph");
  });
});
