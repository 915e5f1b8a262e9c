import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { appendFile } from "node:fs/promises";
import { dirname } from "node:path";
import { isRecord, type JsonValue } from "@climpt/model";
import { CassetteError, SDK_ADAPTER_CODES } from "./errors.ts";
import { fingerprint, requestIdentity } from "./fingerprint.ts";
import { modelId } from "./models.ts";
import type { ModelClient, ModelRequest, ModelResponse } from "./types.ts";

export const CASSETTE_VERSION = 1;

/** One line of a cassette (JSONL): a request's identity and the response it got. */
export interface CassetteEntry {
  readonly v: number;
  readonly fingerprint: string;
  readonly recordedAt: string;
  readonly summary: {
    readonly model: string;
    readonly maxTokens: number;
    readonly messages: number;
    readonly tools: readonly string[];
    readonly outputSchema: boolean;
  };
  /** What the fingerprint hashes: model, system, messages, tools, output schema. */
  readonly request: JsonValue;
  readonly response: ModelResponse;
}

export interface RecordingOptions {
  /** Add to an existing cassette instead of starting it afresh. Default false. */
  readonly append?: boolean;
  /**
   * Replaces secrets in each entry before it is written (a tool result or a prompt may carry a
   * token the environment holds). The fingerprint is computed first, from the real request, so
   * replaying in the same environment still finds the entry.
   */
  readonly scrubber?: { scrubJson<T>(value: T): T };
}

/**
 * A client that passes every call to `inner` and writes each successful exchange to
 * `cassettePath` as one JSON line. Only the request's content and the response are written: no
 * headers, no API key (the request never holds one). Failed calls are not recorded.
 */
export function createRecordingClient(
  inner: ModelClient,
  cassettePath: string,
  options: RecordingOptions = {},
): ModelClient {
  mkdirSync(dirname(cassettePath), { recursive: true });
  if (options.append !== true) writeFileSync(cassettePath, "");
  let writing: Promise<void> = Promise.resolve();
  return {
    async call(request) {
      const response = await inner.call(request);
      const entry: CassetteEntry = {
        v: CASSETTE_VERSION,
        fingerprint: fingerprint(request),
        recordedAt: new Date().toISOString(),
        summary: {
          model: modelId(request.model),
          maxTokens: request.maxTokens,
          messages: request.messages.length,
          tools: (request.tools ?? []).map((tool) => tool.name),
          outputSchema: request.outputSchema !== undefined,
        },
        request: requestIdentity(request),
        response,
      };
      const line = `${JSON.stringify(options.scrubber?.scrubJson(entry) ?? entry)}\n`;
      // Calls can overlap; chaining keeps the lines whole and in completion order.
      writing = writing.then(() => appendFile(cassettePath, line));
      await writing;
      return response;
    },
  };
}

class NotRegularFileError extends Error {}

/**
 * The cassette's text, opened without blocking: a FIFO given as `--replay` opens at once and is
 * refused by the fstat that follows, instead of holding the process until a writer comes.
 */
function readCassetteText(cassettePath: string): string {
  const fd = openSync(cassettePath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      throw new NotRegularFileError(stats.isFIFO() ? "a FIFO" : "a folder, socket or device");
    }
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** Read and check a cassette; a bad line is an error naming the file and line. */
export function readCassette(cassettePath: string): CassetteEntry[] {
  let text: string;
  try {
    text = readCassetteText(cassettePath);
  } catch (error) {
    const notAFile = error instanceof NotRegularFileError;
    throw new CassetteError({
      code: SDK_ADAPTER_CODES.cassetteUnreadable,
      message: notAFile
        ? `The cassette ${cassettePath} is not a regular file (${error.message}), so it is not read.`
        : `The cassette ${cassettePath} cannot be read.`,
      file: cassettePath,
      hint: notAFile
        ? "Pass the .jsonl file a recording wrote (climpt run … --record <file>), not a FIFO or device."
        : "Record it first (climpt run … --record <file>), or check the path.",
      cause: error,
    });
  }
  const entries: CassetteEntry[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch (error) {
      throw new CassetteError({
        code: SDK_ADAPTER_CODES.cassetteUnreadable,
        message: `Line ${index + 1} of the cassette ${cassettePath} is not valid JSON.`,
        file: cassettePath,
        hint: "A cassette is written by createRecordingClient; record it again rather than editing it.",
        cause: error,
      });
    }
    if (
      !isRecord(entry) ||
      entry.v !== CASSETTE_VERSION ||
      typeof entry.fingerprint !== "string" ||
      !isRecord(entry.response)
    ) {
      throw new CassetteError({
        code: SDK_ADAPTER_CODES.cassetteUnreadable,
        message: `Line ${index + 1} of the cassette ${cassettePath} is not a version ${CASSETTE_VERSION} exchange.`,
        file: cassettePath,
        hint: "Record the cassette again with this version of climpt.",
      });
    }
    entries.push(entry as unknown as CassetteEntry);
  }
  return entries;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function pathJoin(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)
    ? `${parent}.${key}`
    : `${parent}[${JSON.stringify(key)}]`;
}

/** Where two JSON values differ, as `$.path: recorded X, requested Y` lines (all of them). */
export function jsonDifferences(recorded: unknown, requested: unknown, path = "$"): string[] {
  if (Array.isArray(recorded) && Array.isArray(requested)) {
    const out: string[] = [];
    const length = Math.max(recorded.length, requested.length);
    for (let index = 0; index < length; index++) {
      if (index >= recorded.length)
        out.push(`${pathJoin(path, index)}: not recorded, requested ${show(requested[index])}`);
      else if (index >= requested.length)
        out.push(`${pathJoin(path, index)}: recorded ${show(recorded[index])}, not requested`);
      else out.push(...jsonDifferences(recorded[index], requested[index], pathJoin(path, index)));
    }
    return out;
  }
  if (isRecord(recorded) && isRecord(requested)) {
    const out: string[] = [];
    for (const key of new Set([...Object.keys(recorded), ...Object.keys(requested)])) {
      if (!(key in requested))
        out.push(`${pathJoin(path, key)}: recorded ${show(recorded[key])}, not requested`);
      else if (!(key in recorded))
        out.push(`${pathJoin(path, key)}: not recorded, requested ${show(requested[key])}`);
      else out.push(...jsonDifferences(recorded[key], requested[key], pathJoin(path, key)));
    }
    return out;
  }
  return JSON.stringify(recorded) === JSON.stringify(requested)
    ? []
    : [`${path}: recorded ${show(recorded)}, requested ${show(requested)}`];
}

export interface ReplayOptions {
  /**
   * Strict (default): a request the cassette does not hold is an AC-REPLAY-001 error with a diff
   * against the nearest recorded request. Not strict: it goes to `inner`, or fails the same way
   * when there is none.
   */
  readonly strict?: boolean;
  readonly inner?: ModelClient;
}

const DIFF_LINES = 12;

/**
 * A client that answers from a cassette, offline: a request gets the next unused response
 * recorded for its fingerprint. Callbacks fire as if the reply had streamed (its text at once,
 * then its tool calls).
 */
export function createReplayClient(cassettePath: string, options: ReplayOptions = {}): ModelClient {
  const strict = options.strict ?? true;
  const entries = !strict && !existsSync(cassettePath) ? [] : readCassette(cassettePath);
  const byFingerprint = new Map<string, CassetteEntry[]>();
  for (const entry of entries) {
    const list = byFingerprint.get(entry.fingerprint) ?? [];
    list.push(entry);
    byFingerprint.set(entry.fingerprint, list);
  }
  const used = new Map<string, number>();
  let calls = 0;

  function missError(request: ModelRequest, key: string): CassetteError {
    const identity = requestIdentity(request);
    const recorded = byFingerprint.get(key);
    if (recorded !== undefined) {
      return new CassetteError({
        code: SDK_ADAPTER_CODES.replayMiss,
        message: `Call #${calls} asks for the same request a ${recorded.length + 1}${ordinal(recorded.length + 1)} time, but ${cassettePath} recorded it only ${recorded.length} time(s) (fingerprint ${key.slice(0, 12)}).`,
        file: cassettePath,
        hint: "The run makes more calls than the recorded one did: record the cassette again.",
      });
    }
    let nearest: { entry: CassetteEntry; line: number; differences: string[] } | undefined;
    entries.forEach((entry, index) => {
      const differences = jsonDifferences(entry.request, identity);
      if (nearest === undefined || differences.length < nearest.differences.length) {
        nearest = { entry, line: index + 1, differences };
      }
    });
    const diff =
      nearest === undefined
        ? "The cassette is empty."
        : `Nearest recorded request (line ${nearest.line}) differs at:\n${nearest.differences
            .slice(0, DIFF_LINES)
            .map((line) => `  ${line}`)
            .join(
              "\n",
            )}${nearest.differences.length > DIFF_LINES ? `\n  … and ${nearest.differences.length - DIFF_LINES} more` : ""}`;
    return new CassetteError({
      code: SDK_ADAPTER_CODES.replayMiss,
      message: `Call #${calls} (model ${modelId(request.model)}, ${request.messages.length} message(s), fingerprint ${key.slice(0, 12)}) is not in the cassette ${cassettePath}.\n${diff}`,
      file: cassettePath,
      hint: "The prompts, tools or schemas changed since the recording: record the cassette again, or replay without strict mode to send new requests to the live model.",
    });
  }

  return {
    async call(request) {
      calls++;
      const key = fingerprint(request);
      const recorded = byFingerprint.get(key) ?? [];
      const next = used.get(key) ?? 0;
      const entry = recorded[next];
      if (entry === undefined) {
        if (!strict && options.inner !== undefined) return options.inner.call(request);
        throw missError(request, key);
      }
      used.set(key, next + 1);
      const response = entry.response;
      if (response.text !== "") request.onTextDelta?.(response.text);
      for (const toolCall of response.toolCalls) request.onToolCall?.(toolCall);
      return response;
    },
  };
}

function ordinal(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return "th";
  return n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th";
}
