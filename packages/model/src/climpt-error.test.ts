import { describe, expect, it } from "vitest";
import { ClimptError, errorMarker, hasErrorMarker, markError } from "./climpt-error.ts";

// Two sibling subclasses and a grandchild, written the way every package writes its errors.
const parentMarker = errorMarker("TestParentError");
class ParentError extends ClimptError {
  constructor(code: string) {
    super({ code, message: "parent" });
    markError(this, parentMarker);
  }
  static override isInstance(error: unknown): error is ParentError {
    return hasErrorMarker(error, parentMarker);
  }
}
const childMarker = errorMarker("TestChildError");
class ChildError extends ParentError {
  constructor() {
    super("T-CHILD-001");
    markError(this, childMarker);
  }
  static override isInstance(error: unknown): error is ChildError {
    return hasErrorMarker(error, childMarker);
  }
}
const siblingMarker = errorMarker("TestSiblingError");
class SiblingError extends ClimptError {
  constructor() {
    super({ code: "T-SIBLING-001", message: "sibling" });
    markError(this, siblingMarker);
  }
  static override isInstance(error: unknown): error is SiblingError {
    return hasErrorMarker(error, siblingMarker);
  }
}

describe("isInstance", () => {
  it("recognises a class's own instances and its subclasses' instances", () => {
    const child = new ChildError();
    expect(ClimptError.isInstance(child)).toBe(true);
    expect(ParentError.isInstance(child)).toBe(true);
    expect(ChildError.isInstance(child)).toBe(true);
  });

  it("never takes a sibling, a parent or a plain error for a class", () => {
    expect(ParentError.isInstance(new SiblingError())).toBe(false);
    expect(SiblingError.isInstance(new ParentError("T-PARENT-001"))).toBe(false);
    expect(ChildError.isInstance(new ParentError("T-PARENT-001"))).toBe(false);
    expect(ClimptError.isInstance(new Error("plain"))).toBe(false);
    expect(ClimptError.isInstance({ code: "SR-LOAD-001", message: "look-alike" })).toBe(false);
    expect(ClimptError.isInstance(null)).toBe(false);
    expect(ClimptError.isInstance("SR-LOAD-001")).toBe(false);
  });

  it("recognises an instance made by another copy of the package", () => {
    // A second copy has its own class, but `Symbol.for` hands it the same marker.
    class OtherCopyOfClimptError extends Error {
      constructor() {
        super("from another copy");
        markError(this, Symbol.for("climpt.ClimptError"));
      }
    }
    const foreign = new OtherCopyOfClimptError();
    expect(foreign instanceof ClimptError).toBe(false);
    expect(ClimptError.isInstance(foreign)).toBe(true);
    expect(ParentError.isInstance(foreign)).toBe(false);
  });

  it("keeps the marker out of the error's enumerable fields and JSON", () => {
    const error = new ChildError();
    expect(Object.keys(error)).not.toContain(String(childMarker));
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: "T-CHILD-001", message: "parent" });
  });
});

describe("ClimptError as a Problem", () => {
  it("carries the specific code, the family and where, and turns back into a Problem", () => {
    const error = new ClimptError({
      code: "SR-INTENT-002",
      family: "GATE_INTERPRETATION_ERROR",
      message: 'step "a" returned "finish", which is not an intent.',
      path: '$.steps["a"]',
      hint: "Constrain the field with an enum.",
      cause: new Error("root"),
    });
    expect(error.toJSON()).toEqual({
      code: "SR-INTENT-002",
      family: "GATE_INTERPRETATION_ERROR",
      message: 'step "a" returned "finish", which is not an intent.',
      path: '$.steps["a"]',
      hint: "Constrain the field with an enum.",
    });
    expect(error.toProblem()).toEqual({ ...error.toJSON(), severity: "error" });
    expect(error.cause).toBeInstanceOf(Error);
  });
});
