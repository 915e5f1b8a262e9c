import type { JsonValue } from "@climpt/model";

/**
 * How a value appears in a prompt: strings as they are, numbers and booleans as text, `null` as
 * `null`, objects and arrays as indented JSON (never `[object Object]`).
 */
export function renderValue(value: JsonValue): string {
  if (typeof value === "string") return value;
  if (value === null || typeof value !== "object") return String(value);
  return JSON.stringify(value, null, 2);
}
