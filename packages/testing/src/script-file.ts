import { readFile } from "node:fs/promises";
import type { FakeReply } from "@climpt/mock";
import { isRecord } from "@climpt/model";

/**
 * A scripted session for the `climpt-fake-anthropic` CLI: replies served in order to
 * `POST /v1/messages`, then `fallback` (if any) for every request after the queue runs out.
 *
 * ```json
 * { "replies": [{ "kind": "message", "content": [{ "type": "text", "text": "hi" }] }],
 *   "fallback": { "kind": "error", "status": 529 } }
 * ```
 */
export interface FakeScript {
  readonly replies: readonly FakeReply[];
  readonly fallback?: FakeReply;
}

const KINDS = new Set(["message", "error", "hang", "cut-stream", "malformed"]);

function checkReply(value: unknown, where: string): FakeReply {
  if (!isRecord(value) || typeof value.kind !== "string" || !KINDS.has(value.kind)) {
    throw new Error(
      `${where}: expected a reply object with kind one of ${[...KINDS].join(", ")}. Build it with the \`reply\` helpers of @climpt/testing and JSON.stringify it.`,
    );
  }
  if ((value.kind === "message" || value.kind === "cut-stream") && !Array.isArray(value.content)) {
    throw new Error(`${where}: a ${value.kind} reply needs a content array`);
  }
  if (value.kind === "error" && typeof value.status !== "number") {
    throw new Error(`${where}: an error reply needs a numeric status`);
  }
  return value as unknown as FakeReply;
}

/** Parse and check a script; errors name the file and the JSON path of the bad entry. */
export function parseFakeScript(text: string, file = "<script>"): FakeScript {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${String(error)})`);
  }
  if (!isRecord(data) || !Array.isArray(data.replies)) {
    throw new Error(`${file}: expected an object with a "replies" array`);
  }
  const replies = data.replies.map((entry, index) =>
    checkReply(entry, `${file} at $.replies[${index}]`),
  );
  return data.fallback === undefined
    ? { replies }
    : { replies, fallback: checkReply(data.fallback, `${file} at $.fallback`) };
}

export async function loadFakeScript(file: string): Promise<FakeScript> {
  return parseFakeScript(await readFile(file, "utf8"), file);
}
