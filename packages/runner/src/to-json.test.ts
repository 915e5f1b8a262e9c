import { describe, expect, it } from "vitest";
import { toJson } from "./to-json.ts";

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

function deep(levels: number): unknown {
  let value: unknown = "leaf";
  for (let level = 0; level < levels; level += 1) value = { next: [value] };
  return value;
}

/** Same value, same key order, same -0 / null: what the journal would hold. */
function expectSameAsJson(value: unknown): void {
  const expected = value === undefined ? null : JSON.parse(JSON.stringify(value));
  const actual = toJson(value);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  expect(actual).toStrictEqual(expected);
}

describe("toJson", () => {
  it("gives what a JSON round trip gives, for plain and for odd values", () => {
    const withProto = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    // An array with a hole (JSON writes it as null).
    const holes = [1, 2, 3];
    delete holes[1];
    const values: unknown[] = [
      undefined,
      null,
      "text with \ud800 a lone surrogate",
      -0,
      [-0, 0.5, 1e21],
      Number.NaN,
      { a: Number.POSITIVE_INFINITY },
      { b: 1, 2: "two", a: { z: [true, false, null] }, 1: "one" },
      { a: undefined, b: () => 1, c: Symbol("s"), d: 1 },
      [undefined, () => 1, Symbol("s")],
      holes,
      { when: new Date(0) },
      { toJSON: () => "custom" },
      new Point(1, 2),
      [new Point(3, 4)],
      Object.assign(Object.create(null), { bare: "object" }),
      withProto,
      deep(10),
      deep(200),
      { next_action: { action: "next", reason: "r" }, result: { out: "value of out" } },
    ];
    for (const value of values) expectSameAsJson(value);
  });

  it("copies: the result shares no object with the value", () => {
    const value = { a: { b: [1, { c: 2 }] } };
    const copy = toJson(value) as { a: { b: [number, { c: number }] } };
    expect(copy).toStrictEqual(value);
    expect(copy.a).not.toBe(value.a);
    expect(copy.a.b).not.toBe(value.a.b);
    expect(copy.a.b[1]).not.toBe(value.a.b[1]);
  });

  it("fails as JSON does on a cycle and on a BigInt", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => toJson(cycle)).toThrow(TypeError);
    expect(() => toJson({ n: 1n })).toThrow(TypeError);
  });
});
