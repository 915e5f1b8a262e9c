import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDotPath, readDotPath, shortKeyOf } from "./dot-path.ts";

const output = {
  next_action: { action: "next", details: { target: "continuation.issue" } },
  a: { b: [{ c: "first" }, { c: "second" }] },
  grid: [
    [1, 2],
    [3, 4],
  ],
  numbered: { "0": "zero-key" },
};

describe("dot paths", () => {
  it("reads nested fields and both array index spellings", () => {
    expect(readDotPath(output, "next_action.action")).toBe("next");
    expect(readDotPath(output, "next_action.details.target")).toBe("continuation.issue");
    expect(readDotPath(output, "a.b[1].c")).toBe("second");
    expect(readDotPath(output, "a.b.1.c")).toBe("second");
    expect(readDotPath(output, "grid[1][0]")).toBe(3);
    expect(readDotPath(output, "numbered.0")).toBe("zero-key");
  });

  it("reads nothing where the output has nothing, including inherited names", () => {
    expect(readDotPath(output, "next_action.missing")).toBeUndefined();
    expect(readDotPath(output, "a.b[5].c")).toBeUndefined();
    expect(readDotPath(output, "a.b.c")).toBeUndefined();
    expect(readDotPath(output, "next_action.action.length")).toBeUndefined();
    expect(readDotPath({}, "toString")).toBeUndefined();
    expect(readDotPath({}, "__proto__")).toBeUndefined();
    expect(readDotPath("text", "a")).toBeUndefined();
  });

  it("rejects paths that cannot be read", () => {
    expect(parseDotPath("")).toBeUndefined();
    expect(parseDotPath("a..b")).toBeUndefined();
    expect(parseDotPath("a[x]")).toBeUndefined();
    expect(readDotPath(output, "a..b")).toBeUndefined();
    expect(parseDotPath("a.b[0].c")).toEqual(["a", "b", 0, "c"]);
    expect(parseDotPath("a.b.0.c")).toEqual(["a", "b", 0, "c"]);
  });

  it("names a handoff value by its last field", () => {
    expect(shortKeyOf("analysis.understanding")).toBe("understanding");
    expect(shortKeyOf("status")).toBe("status");
    expect(shortKeyOf("a.items[0]")).toBe("items[0]");
    expect(shortKeyOf("a.items.0")).toBe("items[0]");
  });

  it("reads back any value placed at a generated path", () => {
    const segment = fc.oneof(
      fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/),
      fc.integer({ min: 0, max: 3 }),
    );
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        fc.jsonValue(),
        (path, leaf) => {
          // Build the nesting the path describes, innermost first.
          let value: unknown = leaf;
          for (const part of [...path].reverse()) {
            if (typeof part === "number") {
              const array: unknown[] = Array.from({ length: part + 1 }, () => null);
              array[part] = value;
              value = array;
            } else {
              value = { [part]: value };
            }
          }
          const dotted = path.map(String).join(".");
          const bracketed = path
            .map((part, i) =>
              typeof part === "number" ? `[${part}]` : i === 0 ? part : `.${part}`,
            )
            .join("");
          expect(readDotPath(value, dotted)).toEqual(leaf);
          if (typeof path[0] === "string") expect(readDotPath(value, bracketed)).toEqual(leaf);
        },
      ),
    );
  });
});
