import { describe, expect, it } from "vitest";
import { schemaCompileTiming } from "./schema-compile-timing.ts";

describe("schemaCompileTiming", () => {
  it("lets a self-contained schema compile while the reply is awaited", () => {
    const schema = {
      type: "object",
      required: ["intent"],
      properties: {
        intent: { enum: ["next", "closing"] },
        // A property may be called "pattern", "$ref" or "id": names are not keywords.
        pattern: {
          type: "object",
          properties: { $ref: { type: "string" }, id: { type: "integer" } },
        },
      },
      patternProperties: { "^x-": { type: "string", pattern: "^[a-z]+$" } },
    };
    expect(schemaCompileTiming(schema)).toBe("while-waiting");
  });

  it("compiles a schema with references before the call", () => {
    expect(schemaCompileTiming({ $ref: "#/$defs/a", $defs: { a: { type: "string" } } })).toBe(
      "before-call",
    );
    expect(schemaCompileTiming({ $id: "https://example.invalid/s", type: "object" })).toBe(
      "before-call",
    );
    expect(schemaCompileTiming({ anyOf: [{ type: "null" }, { id: "draft-04-id" }] })).toBe(
      "before-call",
    );
  });

  it("ignores what only looks like a keyword inside data", () => {
    const schema = {
      type: "object",
      default: { $ref: "#/nowhere", pattern: "(" },
      properties: { kind: { const: { $id: "x" } }, tag: { examples: [{ pattern: "[" }] } },
    };
    expect(schemaCompileTiming(schema)).toBe("while-waiting");
  });

  it("names a pattern that is no regular expression, and where it is", () => {
    expect(schemaCompileTiming({ items: [{ pattern: "a(" }] })).toEqual({
      problem: expect.stringMatching(/^\$\.items\[0\]\.pattern: Invalid regular expression/),
    });
    expect(
      schemaCompileTiming({ type: "object", patternProperties: { "[": { type: "string" } } }),
    ).toEqual({ problem: expect.stringMatching(/^\$\.patternProperties\["\["\]: Invalid/) });
  });
});
