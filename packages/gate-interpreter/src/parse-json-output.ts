import type { JsonObject } from "@climpt/model";

export type CoercedObject =
  | { readonly ok: true; readonly value: JsonObject }
  | { readonly ok: false; readonly reason: string };

const FENCE = /```[ \t]*(?:json|JSON|jsonc)?[ \t]*\r?\n?([\s\S]*?)```/g;

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseObject(text: string): JsonObject | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isJsonObject(parsed)) return parsed;
    // A model (or a transport) that stringified its JSON twice.
    if (typeof parsed === "string") {
      const inner: unknown = JSON.parse(parsed);
      if (isJsonObject(inner)) return inner;
    }
  } catch {
    // Not JSON; the caller tries the next form.
  }
  return undefined;
}

/**
 * The JSON object an output carries: the object itself, a JSON string, or the first ```json
 * fence in a text that parses to an object (check prompts often answer in a fence, seed 000).
 * On failure, says why in words a user can act on.
 */
export function coerceJsonObject(output: unknown): CoercedObject {
  if (isJsonObject(output)) return { ok: true, value: output };
  if (typeof output !== "string") {
    const what = output === null ? "null" : Array.isArray(output) ? "an array" : typeof output;
    return { ok: false, reason: `the output is ${what}, not a JSON object` };
  }
  const text = output.trim();
  if (text === "") return { ok: false, reason: "the output is empty" };
  const whole = parseObject(text);
  if (whole !== undefined) return { ok: true, value: whole };
  for (const match of text.matchAll(FENCE)) {
    const fenced = parseObject((match[1] ?? "").trim());
    if (fenced !== undefined) return { ok: true, value: fenced };
  }
  const preview = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return {
    ok: false,
    reason: `the output is not JSON and has no \`\`\`json fence holding a JSON object: ${JSON.stringify(preview)}`,
  };
}
