import type { JsonValue } from "@climpt/model";

/** One step of a dot path: a property name, or an array index written as `[0]` or `.0`. */
export type PathSegment = string | number;

const SEGMENT = /^([^[\]]*)((?:\[\d+\])*)$/;

// Paths come from the registry, so there are few distinct ones and each is read on every step
// execution: parse once. Bounded so a caller feeding arbitrary paths cannot grow it forever.
const parsedPaths = new Map<string, readonly PathSegment[] | undefined>();
const PARSED_PATHS_LIMIT = 1024;

/**
 * Parses a registry dot path (`next_action.action`, `a.b[0].c`, `a.b.0.c`). Returns undefined
 * for a path that cannot be read (empty, `a..b`, `a[x]`), so a caller can say so instead of
 * silently reading nothing. A purely numeric segment is kept as a number: it indexes an array
 * and, on an object, is read as the property of that name.
 */
export function parseDotPath(path: string): readonly PathSegment[] | undefined {
  if (parsedPaths.has(path)) return parsedPaths.get(path);
  const parsed = parseUncached(path);
  if (parsedPaths.size >= PARSED_PATHS_LIMIT) parsedPaths.clear();
  parsedPaths.set(path, parsed === undefined ? undefined : Object.freeze(parsed));
  return parsed;
}

function parseUncached(path: string): PathSegment[] | undefined {
  if (path.trim() === "") return undefined;
  const segments: PathSegment[] = [];
  for (const part of path.split(".")) {
    const match = SEGMENT.exec(part);
    if (match === null) return undefined;
    const name = match[1] ?? "";
    const indices = match[2] ?? "";
    if (name === "" && indices === "") return undefined;
    if (name !== "") segments.push(/^\d+$/.test(name) ? Number(name) : name);
    for (const index of indices.matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]));
  }
  return segments;
}

/** The value at `path` in `value`, or undefined when any step of the path is absent. */
export function readDotPath(value: unknown, path: string): JsonValue | undefined {
  const segments = parseDotPath(path);
  if (segments === undefined) return undefined;
  let current: unknown = value;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (typeof segment !== "number" || segment >= current.length) return undefined;
      current = current[segment];
    } else if (typeof current === "object" && current !== null) {
      const key = String(segment);
      // Own properties only: a model answering `{}` must not make `toString` or `__proto__`
      // look like a field it wrote.
      if (!Object.hasOwn(current, key)) return undefined;
      current = (current as Record<string, unknown>)[key];
    } else {
      return undefined;
    }
  }
  return current === undefined ? undefined : (current as JsonValue);
}

/**
 * The short handoff key of a path: its last property name, with any array indices that follow
 * it (`analysis.understanding` → `understanding`, `a.items.0` and `a.items[0]` → `items[0]`).
 * This is the `<key>` of `uv-<step>_<key>`.
 */
export function shortKeyOf(path: string): string {
  const segments = parseDotPath(path);
  if (segments === undefined) return path;
  let end = segments.length;
  let indices = "";
  while (end > 0 && typeof segments[end - 1] === "number") {
    indices = `[${segments[end - 1]}]${indices}`;
    end -= 1;
  }
  const name = end > 0 ? String(segments[end - 1]) : "";
  return `${name}${indices}`;
}

/** The path of the object that holds the field at `path` (`a.b.c` → `a.b`; top level → ""). */
export function parentPathOf(path: string): string | undefined {
  const segments = parseDotPath(path);
  if (segments === undefined || segments.length === 0) return undefined;
  return segments
    .slice(0, -1)
    .map((segment) => String(segment))
    .join(".");
}
