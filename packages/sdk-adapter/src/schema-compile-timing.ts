import type { JsonSchema } from "@climpt/model";

/**
 * When runStep compiles a step's output schema:
 * - `"while-waiting"`: after the first request has left, while its reply is awaited, so that
 *   loading the validator and compiling overlap the model's latency instead of preceding it;
 * - `"before-call"`: first, as a schema with references is (resolving them is the compile's work,
 *   and a reference that does not resolve must cost no model call);
 * - `{ problem }`: never, because a cheap look already finds it broken.
 */
export type SchemaCompileTiming = "while-waiting" | "before-call" | { readonly problem: string };

/** Keywords whose value is data, never a schema: nothing inside them is a keyword. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples"]);

/** Keywords whose value maps names (not keywords) to schemas. */
const NAMED_SCHEMAS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

/** What makes a schema's meaning depend on resolution: references and the ids they point at. */
const REFERENCE_KEYWORDS = new Set([
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "$recursiveAnchor",
]);

/** `$.a.b` for a name that reads as an identifier, `$.a["x-y"]` for any other. */
function member(path: string, name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)
    ? `${path}.${name}`
    : `${path}[${JSON.stringify(name)}]`;
}

function regexProblem(source: string, where: string): string | undefined {
  try {
    // Ajv builds every pattern with the `u` flag.
    new RegExp(source, "u");
    return undefined;
  } catch (error) {
    return `${where}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function timingOf(node: unknown, path: string): SchemaCompileTiming {
  if (Array.isArray(node)) {
    let timing: SchemaCompileTiming = "while-waiting";
    for (const [index, item] of node.entries()) {
      const inner = timingOf(item, `${path}[${index}]`);
      if (typeof inner === "object") return inner;
      if (inner === "before-call") timing = inner;
    }
    return timing;
  }
  if (node === null || typeof node !== "object") return "while-waiting";
  let timing: SchemaCompileTiming = "while-waiting";
  for (const [key, value] of Object.entries(node)) {
    const at = member(path, key);
    if (DATA_KEYWORDS.has(key)) continue;
    // draft-04's `id` is a keyword only where it is a string (elsewhere it names a property).
    if (REFERENCE_KEYWORDS.has(key) || (key === "id" && typeof value === "string")) {
      timing = "before-call";
      continue;
    }
    if (key === "pattern" && typeof value === "string") {
      const problem = regexProblem(value, at);
      if (problem !== undefined) return { problem };
      continue;
    }
    if (NAMED_SCHEMAS.has(key) && value !== null && typeof value === "object") {
      for (const [name, schema] of Object.entries(value)) {
        if (key === "patternProperties") {
          const problem = regexProblem(name, member(at, name));
          if (problem !== undefined) return { problem };
        }
        const inner = timingOf(schema, member(at, name));
        if (typeof inner === "object") return inner;
        if (inner === "before-call") timing = inner;
      }
      continue;
    }
    const inner = timingOf(value, at);
    if (typeof inner === "object") return inner;
    if (inner === "before-call") timing = inner;
  }
  return timing;
}

/** See SchemaCompileTiming. One walk over the schema, with no compile. */
export function schemaCompileTiming(schema: JsonSchema): SchemaCompileTiming {
  return timingOf(schema, "$");
}
