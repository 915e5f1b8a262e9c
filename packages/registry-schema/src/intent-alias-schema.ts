import {
  intentAliasesOf,
  isPlainObject,
  type JsonSchema,
  type JsonValue,
  type StructuredGate,
  setEntry,
} from "@climpt/model";
import { fragmentToPointer, parseJsonPointer } from "./json-pointer.ts";

/**
 * The schema a gated step's output is accepted under: its output schema with the intent enum
 * (at `intentSchemaRef`) widened by the aliases of the step's allowed intents. The model is still
 * sent the schema as written; a reply that says `retry` where the enum lists `repeat` then passes
 * the schema check and the gate maps it (docs/design.md#intents). Undefined when nothing would
 * change: no gate, a pointer that leads to no enum, or an enum that already lists every alias.
 */
export function acceptedOutputSchema(
  schema: JsonSchema,
  gate: StructuredGate | undefined,
): JsonSchema | undefined {
  if (gate === undefined || !gate.intentSchemaRef.startsWith("#/")) return undefined;
  const segments = pointerSegments(gate.intentSchemaRef);
  if (segments === undefined) return undefined;
  const aliases = gate.allowedIntents.flatMap((intent) => intentAliasesOf(intent));
  return widen(schema, segments, 0, aliases);
}

/**
 * The last `intentSchemaRef` parsed, and its segments: the steps of a registry mostly share one
 * pointer, and a loader asks for each of thousands of steps. The segments are only read.
 */
let lastPointer: { readonly ref: string; readonly segments: readonly string[] | undefined } = {
  ref: "",
  segments: undefined,
};

function pointerSegments(ref: string): readonly string[] | undefined {
  if (lastPointer.ref !== ref) {
    const pointer = fragmentToPointer(ref.slice(1));
    lastPointer = { ref, segments: pointer === undefined ? undefined : parseJsonPointer(pointer) };
  }
  return lastPointer.segments;
}

/**
 * A copy of `node` with the enum at `segments` (from `at` on) widened; undefined when nothing
 * changes.
 */
function widen(
  node: JsonValue,
  segments: readonly string[],
  at: number,
  aliases: readonly string[],
): JsonSchema | undefined {
  if (!isPlainObject(node)) return undefined;
  if (at === segments.length) {
    const written = Array.isArray(node.enum)
      ? node.enum
      : node.const !== undefined
        ? [node.const]
        : undefined;
    if (written === undefined) return undefined;
    const added = aliases.filter((alias) => !written.includes(alias));
    if (added.length === 0) return undefined;
    const { const: _const, ...rest } = node;
    return { ...rest, enum: [...written, ...added] };
  }
  const head = segments[at] as string;
  if (!Object.hasOwn(node, head)) return undefined;
  const child = node[head] as JsonValue;
  if (Array.isArray(child)) {
    const index = Number(segments[at + 1]);
    if (
      at + 1 === segments.length ||
      !Number.isInteger(index) ||
      index < 0 ||
      index >= child.length
    ) {
      return undefined;
    }
    const item = widen(child[index] as JsonValue, segments, at + 2, aliases);
    if (item === undefined) return undefined;
    const items = child.slice();
    items[index] = item;
    const copy = { ...node };
    setEntry(copy, head, items);
    return copy;
  }
  const widened = widen(child, segments, at + 1, aliases);
  if (widened === undefined) return undefined;
  const copy = { ...node };
  setEntry(copy, head, widened);
  return copy;
}
