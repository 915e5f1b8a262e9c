import { isPlainObject, type JsonValue, jsonPath } from "@climpt/model";

/**
 * The segments of a JSON pointer (RFC 6901): `""` is the whole document, `/a/b~1c` is
 * `["a", "b/c"]`. Undefined when the text is not a pointer (does not start with `/`).
 */
export function parseJsonPointer(pointer: string): string[] | undefined {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return undefined;
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The pointer of a URI fragment (`#/a/b%20c` → `/a/b c`); undefined when not decodable. */
export function fragmentToPointer(fragment: string): string | undefined {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
}

export function formatJsonPointer(segments: readonly string[]): string {
  return segments.map((segment) => `/${segment.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** The value at a pointer, or undefined when the pointer leads nowhere. */
export function resolveJsonPointer(
  document: JsonValue,
  segments: readonly string[],
): JsonValue | undefined {
  let current: JsonValue | undefined = document;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (isPlainObject(current)) {
      current = Object.hasOwn(current, segment) ? current[segment] : undefined;
    } else {
      return undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}

/** `["properties", "a.b", "0"]` → `$.properties["a.b"][0]`, for problems inside a JSON file. */
export function pointerToJsonPath(segments: readonly string[]): string {
  return segments.reduce<string>(
    (parent, segment) =>
      jsonPath(parent, /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment),
    "$",
  );
}
