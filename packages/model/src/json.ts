/**
 * JSON as data: the types every package passes around (outputs, handoff values, schemas) and the
 * guards that tell plain JSON from anything else.
 */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A JSON Schema document or subschema. Kept as plain JSON. */
export type JsonSchema = JsonObject;

/**
 * Whether a value is an object with string keys: not null, not an array. Says nothing about its
 * prototype or its values; use `isPlainObject` or `isJsonObject` when that matters.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A record whose prototype is `Object.prototype` or null: what `JSON.parse` builds. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

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

export function isJsonObject(value: unknown): value is JsonObject {
  return isPlainObject(value) && isJsonValue(value);
}

/**
 * An empty record with no prototype, for entries keyed by names an agent's author or a model
 * chose (step ids, validator ids, parameter names, transition targets). A lookup of any name —
 * `toString`, `constructor`, `__proto__` — finds only what was set, so `record[name] ===
 * undefined` means "not there" for every name, and assigning `__proto__` sets an entry. The
 * loader builds every such record of the normalized model this way.
 */
export function ownRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/**
 * `record[key]` when it is the record's own entry, else undefined: never an inherited
 * `toString` or `constructor`. For records that may have a prototype (JSON.parse builds them
 * with one: a journal's router state, a model's output).
 */
export function ownEntry<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Sets `record[key]` as an own data property. Plain assignment would treat a key such as
 * `__proto__` (legal in JSON, and JSON.parse keeps it as data) as the prototype setter.
 */
export function setEntry<T>(record: Record<string, T>, key: string, value: T): void {
  // When no property of that name exists on the record or its prototypes, assignment creates
  // exactly the own data property the definition below would (enumerable, writable,
  // configurable), without a descriptor object per call: the loader sets hundreds of thousands
  // of entries on a large agent. `__proto__`, an existing key or an inherited name is defined.
  if (!(key in record)) {
    record[key] = value;
    return;
  }
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * `Object.values(record)` (own enumerable string keys, in their order), read key by key. V8 takes
 * a slow path for Object.values / Object.entries of an object with many keys (a registry's
 * `steps` at a few thousand steps): 5× the cost of `Object.keys` plus a lookup at 10,000 keys.
 */
export function recordValues<T>(record: Readonly<Record<string, T>>): T[] {
  const keys = Object.keys(record);
  const values = new Array<T>(keys.length);
  for (let index = 0; index < keys.length; index++) {
    values[index] = record[keys[index] as string] as T;
  }
  return values;
}

/** `Object.entries(record)`, read key by key for the reason `recordValues` gives. */
export function recordEntries<T>(record: Readonly<Record<string, T>>): [string, T][] {
  const keys = Object.keys(record);
  const entries = new Array<[string, T]>(keys.length);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    entries[index] = [key, record[key] as T];
  }
  return entries;
}

/**
 * How many objects and arrays the deepest value of a JSON text sits in (`{}` is 1). A linear scan
 * of the characters, strings skipped, with no allocation: it is meant to run before `JSON.parse`
 * (or right after it) on text from a file, because JSON.parse builds a value nested a million
 * levels deep without complaint and every recursive walk after it (JSON.stringify, a scrubber, a
 * renderer) then overflows the stack. For text that is not valid JSON the number means nothing,
 * and the parse reports the text.
 */
export function nestingOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return deepest;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
