import type { Registry } from "@climpt/model";
import { registryOf } from "@climpt/model/testing";
import { describe, expect, it } from "vitest";
import { resolveEntryStep } from "./entry-step.ts";

function registry(overrides: Partial<Registry>): Registry {
  return registryOf([], overrides);
}

describe("resolveEntryStep", () => {
  it("prefers the mapping for the verdict type over entryStep", () => {
    const r = registry({
      entryStep: "initial.default",
      entryStepMapping: { "poll:state": "initial.polling", "count:iteration": "initial.iteration" },
    });
    expect(resolveEntryStep(r, "poll:state")).toEqual({ ok: true, value: "initial.polling" });
    expect(resolveEntryStep(r, "count:iteration")).toEqual({
      ok: true,
      value: "initial.iteration",
    });
    expect(resolveEntryStep(r, "detect:keyword")).toEqual({ ok: true, value: "initial.default" });
  });

  it("finds a mapping keyed by the camelCase spelling", () => {
    const r = registry({ entryStepMapping: { externalState: "initial.polling" } });
    expect(resolveEntryStep(r, "poll:state")).toEqual({ ok: true, value: "initial.polling" });
  });

  it("fails with SR-ENTRY-001 when nothing names an entry", () => {
    const result = resolveEntryStep(registry({}), "detect:graph");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]?.code).toBe("SR-ENTRY-001");
  });
});
