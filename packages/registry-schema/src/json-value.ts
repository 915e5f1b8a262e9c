import * as v from "valibot";
import type { JsonObject, JsonValue } from "./model.ts";

/** Whether a value is plain JSON data: what `JSON.parse` can produce, nothing else. */
export function isJsonValue(value: unknown, depth = 0): value is JsonValue {
  // A depth cap keeps a hostile programmatic value (or a cyclic object) from overflowing the stack.
  if (depth > 256) return false;
  if (value === null) return true;
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object":
      if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
      if (!isPlainObject(value)) return false;
      return Object.values(value).every((item) => isJsonValue(item, depth + 1));
    default:
      return false;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return isPlainObject(value) && isJsonValue(value);
}

/**
 * Any JSON value. A `custom` schema, so the JSON Schema generator maps it to `{}` (see
 * json-schema-files.ts): in a JSON file every value is JSON already.
 */
export const jsonValueSchema = v.custom<JsonValue>((input) => isJsonValue(input), "a JSON value");

/**
 * Sets `record[key]` as an own data property. Plain assignment would treat a key such as
 * `__proto__` (legal in JSON, and JSON.parse keeps it as data) as the prototype setter.
 */
export function setEntry<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
