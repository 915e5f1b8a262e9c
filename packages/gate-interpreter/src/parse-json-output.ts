import { isRecord, type JsonObject, ok, problem, type Result } from "@climpt/model";

const FENCE = /```[ \t]*(?:json|JSON|jsonc)?[ \t]*\r?\n?([\s\S]*?)```/g;

/** The code of an output that holds no JSON object (the catalogue row is SR-GATE-007). */
const NOT_AN_OBJECT = "SR-GATE-007";

function parseObject(text: string): JsonObject | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) return parsed as JsonObject;
    // A model (or a transport) that stringified its JSON twice.
    if (typeof parsed === "string") {
      const inner: unknown = JSON.parse(parsed);
      if (isRecord(inner)) return inner as JsonObject;
    }
  } catch {
    // Not JSON; the caller tries the next form.
  }
  return undefined;
}

function notAnObject(message: string): Result<JsonObject> {
  return {
    ok: false,
    issues: [
      problem(NOT_AN_OBJECT, message, {
        hint: 'Answer with one JSON object, e.g. {"result": "ok", "message": "…"}, alone or in a ```json fence.',
      }),
    ],
  };
}

/**
 * The JSON object an output carries: the object itself, a JSON string, or the first ```json
 * fence in a text that parses to an object (check prompts often answer in a fence). Otherwise an
 * SR-GATE-007 problem that says why in words a user can act on.
 */
export function coerceJsonObject(output: unknown): Result<JsonObject> {
  if (isRecord(output)) return ok(output as JsonObject);
  if (typeof output !== "string") {
    const what = output === null ? "null" : Array.isArray(output) ? "an array" : typeof output;
    return notAnObject(`The output is ${what}, not a JSON object.`);
  }
  const text = output.trim();
  if (text === "") return notAnObject("The output is empty.");
  const whole = parseObject(text);
  if (whole !== undefined) return ok(whole);
  for (const match of text.matchAll(FENCE)) {
    const fenced = parseObject((match[1] ?? "").trim());
    if (fenced !== undefined) return ok(fenced);
  }
  const preview = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return notAnObject(
    `The output is not JSON and has no \`\`\`json fence holding a JSON object: ${JSON.stringify(preview)}.`,
  );
}
