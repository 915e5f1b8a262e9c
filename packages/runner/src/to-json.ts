import type { JsonValue } from "@climpt/model";

/** Deeper values take JSON's own round trip (it also reports a cycle the way it always did). */
const MAX_DEPTH = 64;

/** Marks a value the direct copy leaves to `JSON.parse(JSON.stringify(…))`. */
const NOT_PLAIN: unique symbol = Symbol("not plain JSON");

/**
 * A value as plain JSON (the journal's form); undefined becomes null. The result is what
 * `JSON.parse(JSON.stringify(value))` gives. A step's output is already plain JSON nearly always
 * (the model's reply, parsed), and copying it directly spares every step a serialisation and a
 * parse; anything the copy would have to interpret (`toJSON`, a Date, a class instance, an
 * undefined or non-finite member, a `__proto__` key, great depth) goes through JSON itself.
 */
export function toJson(value: unknown): JsonValue {
  if (value === undefined) return null;
  const copy = plainCopy(value, 0);
  return copy === NOT_PLAIN ? (JSON.parse(JSON.stringify(value)) as JsonValue) : copy;
}

function plainCopy(value: unknown, depth: number): JsonValue | typeof NOT_PLAIN {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      // JSON writes -0 as 0 and has no NaN or Infinity (they become null).
      if (!Number.isFinite(value)) return NOT_PLAIN;
      return value === 0 ? 0 : value;
    case "object":
      break;
    default:
      return NOT_PLAIN;
  }
  if (value === null) return null;
  if (depth >= MAX_DEPTH) return NOT_PLAIN;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return NOT_PLAIN;
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Array.prototype) {
    const items: JsonValue[] = [];
    for (const item of value as readonly unknown[]) {
      const copied = plainCopy(item, depth + 1);
      if (copied === NOT_PLAIN) return NOT_PLAIN;
      items.push(copied);
    }
    return items;
  }
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const record: Record<string, JsonValue> = {};
  for (const key of Object.keys(value)) {
    // Assigning it would set the copy's prototype; JSON.parse makes it an own key.
    if (key === "__proto__") return NOT_PLAIN;
    const copied = plainCopy((value as Record<string, unknown>)[key], depth + 1);
    if (copied === NOT_PLAIN) return NOT_PLAIN;
    record[key] = copied;
  }
  return record;
}
