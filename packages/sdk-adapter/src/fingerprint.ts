import { createHash } from "node:crypto";
import type { JsonValue } from "@climpt/model";
import { modelId } from "./models.ts";
import type { ModelRequest } from "./types.ts";

/** JSON with object keys sorted at every level, so equal data always serializes the same. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${stableStringify(record[key])}`).join(",")}}`;
}

/**
 * The part of a request that decides the reply: model, system, messages, tools and output
 * schema. Limits, timeouts, signals and callbacks are left out: they change how a reply is
 * waited for, not what it says.
 */
export function requestIdentity(request: ModelRequest): JsonValue {
  return JSON.parse(
    JSON.stringify({
      model: modelId(request.model),
      system: request.system ?? null,
      messages: request.messages,
      tools: request.tools ?? [],
      outputSchema: request.outputSchema ?? null,
    }),
  ) as JsonValue;
}

/** A stable hash of `requestIdentity`: same request, same fingerprint, in any process. */
export function fingerprint(request: ModelRequest): string {
  return createHash("sha256")
    .update(stableStringify(requestIdentity(request)))
    .digest("hex");
}
