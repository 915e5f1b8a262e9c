import { describe, expect, it } from "vitest";
import {
  canonicalIntent,
  inferStepKind,
  intentAliasesOf,
  isIntentAllowedForKind,
  STEP_KIND_INTENTS,
} from "./intents.ts";
import { canonicalVerdictType, verdictTypeSpellings } from "./verdict-types.ts";

describe("step kinds", () => {
  it("keeps closing to closure steps and handoff to work steps", () => {
    expect(isIntentAllowedForKind("work", "closing")).toBe(false);
    expect(isIntentAllowedForKind("verification", "handoff")).toBe(false);
    expect(isIntentAllowedForKind("closure", "closing")).toBe(true);
    for (const kind of ["work", "verification", "closure"] as const) {
      expect(STEP_KIND_INTENTS[kind]).toContain("abort");
    }
  });

  it("infers the kind from c2, then from the id prefix", () => {
    expect(inferStepKind("closure.issue", undefined)).toBe("closure");
    expect(inferStepKind("consider", "closure")).toBe("closure");
    expect(inferStepKind("verification.x", undefined)).toBe("verification");
    expect(inferStepKind("section.projectcontext", "section")).toBe("section");
    expect(inferStepKind("s_a8f3", undefined)).toBe("work");
  });
});

describe("verdict types", () => {
  it("accepts both spellings and the check dialect's stepFlow", () => {
    expect(canonicalVerdictType("externalState")).toBe("poll:state");
    expect(canonicalVerdictType("poll:state")).toBe("poll:state");
    expect(canonicalVerdictType("stepFlow")).toBe("detect:graph");
    expect(canonicalVerdictType("nope")).toBeUndefined();
    expect(verdictTypeSpellings("detect:graph")).toEqual([
      "detect:graph",
      "stepMachine",
      "stepFlow",
    ]);
  });
});

describe("canonicalIntent and intentAliasesOf", () => {
  it("maps intents and aliases, whatever their case and spacing", () => {
    expect(canonicalIntent(" Retry ")).toBe("repeat");
    expect(canonicalIntent("closing")).toBe("closing");
    expect(canonicalIntent("finish")).toBeUndefined();
    expect(canonicalIntent("constructor")).toBeUndefined();
    expect(canonicalIntent(3)).toBeUndefined();
  });

  it("lists the aliases of one intent", () => {
    expect(intentAliasesOf("repeat")).toEqual(["retry", "wait", "fail"]);
    expect(intentAliasesOf("escalate")).toEqual([]);
  });
});
