import { describe, expect, it } from "vitest";
import {
  isJsonObject,
  isJsonValue,
  isPlainObject,
  isRecord,
  recordEntries,
  recordValues,
  setEntry,
} from "./json.ts";

describe("JSON guards", () => {
  it("isRecord: an object that is not null and not an array", () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(new Map())).toBe(true);
    expect(isRecord([])).toBe(false);
    expect(isRecord(null)).toBe(false);
    expect(isRecord("x")).toBe(false);
  });

  it("isPlainObject: only what JSON.parse builds", () => {
    expect(isPlainObject(JSON.parse('{"a":1}'))).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject(new Map())).toBe(false);
    expect(isPlainObject(new Date())).toBe(false);
  });

  it("isJsonValue: finite numbers, no functions, no cycles", () => {
    expect(isJsonValue({ a: [1, "b", null, true, { c: 2 }] })).toBe(true);
    expect(isJsonValue(Number.NaN)).toBe(false);
    expect(isJsonValue({ f: () => 1 })).toBe(false);
    expect(isJsonValue(undefined)).toBe(false);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(isJsonValue(cyclic)).toBe(false);
    expect(isJsonObject([1])).toBe(false);
  });

  it("setEntry keeps __proto__ as data", () => {
    const record: Record<string, number> = {};
    setEntry(record, "__proto__", 1);
    expect(Object.hasOwn(record, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  });

  it("setEntry makes an own, enumerable, writable, configurable entry, inherited names too", () => {
    const record: Record<string, number> = { a: 1 };
    setEntry(record, "b", 2);
    setEntry(record, "toString", 3);
    setEntry(record, "a", 4);
    expect(Object.keys(record)).toEqual(["a", "b", "toString"]);
    for (const key of ["a", "b", "toString"]) {
      expect(Object.getOwnPropertyDescriptor(record, key)).toEqual({
        value: record[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    expect(record).toEqual({ a: 4, b: 2, toString: 3 });
  });

  it("recordValues and recordEntries are Object.values and Object.entries, __proto__ too", () => {
    const small = JSON.parse('{"b": 1, "__proto__": {"x": 2}, "2": 3, "a": 4}') as Record<
      string,
      unknown
    >;
    const large: Record<string, number> = {};
    for (let index = 0; index < 3000; index++) setEntry(large, `step.${index}`, index);
    setEntry(large, "__proto__", -1);
    for (const record of [small, large, {}]) {
      expect(recordValues(record)).toEqual(Object.values(record));
      expect(recordEntries(record)).toEqual(Object.entries(record));
    }
  });
});
