/**
 * The mock script: the file a user writes (or `climpt init` writes) to say what the stand-in
 * model answers. Plain JSON, read once at start; every problem names the file, the JSON path of
 * the entry and how to fix it (AC-MOCK-001 / AC-MOCK-002), all of them at once.
 *
 * ```json
 * { "rules": [
 *     { "step": "initial.work", "turns": [
 *         { "toolCalls": [{ "name": "Glob", "input": { "pattern": "*.md" } }] },
 *         { "output": { "next_action": { "action": "next" } }, "delayMs": 200 } ] },
 *     { "prompt": "commit your work", "reply": { "error": { "status": 529 } } } ] }
 * ```
 */
import { readFile } from "node:fs/promises";
import {
  fail,
  isRecord,
  type JsonValue,
  ok,
  type Problem,
  problem,
  type Result,
} from "@climpt/model";
import { MOCK_CODES } from "./codes.ts";

/** An API error the mock answers with: the HTTP status and the body's `error.type`. */
export interface MockError {
  readonly status: number;
  /** Derived from the status when absent (529 → `overloaded_error`, 429 → `rate_limit_error`). */
  readonly type?: string;
  readonly message?: string;
}

export interface MockToolCall {
  readonly name: string;
  readonly input: JsonValue;
}

/** What one turn answers: exactly one of these. */
export type MockAnswer =
  | { readonly kind: "output"; readonly output: JsonValue }
  | { readonly kind: "text"; readonly text: string }
  | {
      readonly kind: "toolCalls";
      readonly calls: readonly MockToolCall[];
      readonly text?: string;
    }
  | { readonly kind: "error"; readonly error: MockError };

/** The answer to one request of a step's conversation. */
export interface MockTurn {
  readonly answer: MockAnswer;
  /** Wait this long before answering (simulated latency). */
  readonly delayMs?: number;
  /** The first `times` requests this turn answers get this error instead (then the answer). */
  readonly failFirst?: MockError & { readonly times: number };
}

export interface MockRule {
  /** The rule's JSON path in the script (`$.rules[2]`), for messages. */
  readonly path: string;
  readonly name?: string;
  /** The step id the request must come from (climpt sends it as the `x-climpt-step` header). */
  readonly step?: string;
  /** Text the step's prompt (the conversation's first user message) must contain. */
  readonly prompt?: string;
  /** A regular expression the step's prompt must match (`promptMatches`). */
  readonly promptMatches?: RegExp;
  /** Turn i answers the request that follows i replies in the step's conversation. */
  readonly turns: readonly MockTurn[];
}

export interface MockScript {
  /** The file it was read from, as given (`<script>` when parsed from text). */
  readonly file: string;
  readonly rules: readonly MockRule[];
}

/** Longest simulated latency: a typo of a few zeros must not stall a run for hours. */
export const MAX_DELAY_MS = 600_000;

const RULE_KEYS = new Set(["name", "step", "prompt", "promptMatches", "turns", "reply"]);
const TURN_KEYS = new Set(["output", "text", "toolCalls", "error", "delayMs", "failFirst"]);
const ANSWER_KEYS = ["output", "text", "toolCalls", "error"] as const;

class Checker {
  readonly problems: Problem[] = [];
  constructor(readonly file: string) {}

  add(path: string, message: string, hint: string): void {
    this.problems.push(problem(MOCK_CODES.badScript, message, { file: this.file, path, hint }));
  }

  unknownKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>, path: string): void {
    for (const key of Object.keys(value)) {
      if (!allowed.has(key)) {
        this.add(
          `${path}.${key}`,
          `unknown key "${key}".`,
          `Use one of ${[...allowed].join(", ")}, or remove it.`,
        );
      }
    }
  }

  string(value: unknown, path: string, what: string): string | undefined {
    if (value === undefined) return undefined;
    if (typeof value === "string" && value !== "") return value;
    this.add(path, `expected ${what} as a non-empty string.`, `Write it as a JSON string.`);
    return undefined;
  }

  error(value: unknown, path: string): MockError | undefined {
    if (!isRecord(value)) {
      this.add(path, "expected an object.", 'Write { "status": 529, "type": "overloaded_error" }.');
      return undefined;
    }
    this.unknownKeys(value, new Set(["status", "type", "message", "times"]), path);
    const status = value.status;
    if (typeof status !== "number" || !Number.isInteger(status) || status < 400 || status > 599) {
      this.add(
        `${path}.status`,
        `expected an HTTP error status (400–599), got ${JSON.stringify(status)}.`,
        "Use the status the API would send: 400, 401, 429, 500, 529…",
      );
      return undefined;
    }
    const type = this.string(value.type, `${path}.type`, "the error type");
    const message = this.string(value.message, `${path}.message`, "the error message");
    return {
      status,
      ...(type === undefined ? {} : { type }),
      ...(message === undefined ? {} : { message }),
    };
  }

  toolCalls(value: unknown, path: string): MockToolCall[] | undefined {
    if (!Array.isArray(value) || value.length === 0) {
      this.add(
        path,
        "expected a non-empty array of tool calls.",
        'Write [{ "name": "Read", "input": { "file_path": "README.md" } }].',
      );
      return undefined;
    }
    const calls: MockToolCall[] = [];
    value.forEach((call, index) => {
      const at = `${path}[${index}]`;
      if (
        !isRecord(call) ||
        typeof call.name !== "string" ||
        call.name === "" ||
        !isRecord(call.input)
      ) {
        this.add(
          at,
          "a tool call needs a name and an input object.",
          'Write { "name": "Read", "input": { "file_path": "README.md" } }.',
        );
        return;
      }
      this.unknownKeys(call, new Set(["name", "input"]), at);
      calls.push({ name: call.name, input: call.input as JsonValue });
    });
    return calls.length === value.length ? calls : undefined;
  }

  answer(value: Record<string, unknown>, path: string): MockAnswer | undefined {
    const given = ANSWER_KEYS.filter((key) => value[key] !== undefined);
    const only = given.length === 1 ? given[0] : undefined;
    const text = this.string(value.text, `${path}.text`, "the reply's text");
    if (
      only === undefined &&
      !(given.length === 2 && given.includes("toolCalls") && given.includes("text"))
    ) {
      this.add(
        path,
        `a turn needs exactly one of output, text, toolCalls or error; it has ${given.length === 0 ? "none" : given.join(" and ")}.`,
        'Answer with "output" (the step\'s structured output), "text", "toolCalls" (with an optional "text" before them) or "error".',
      );
      return undefined;
    }
    if (value.toolCalls !== undefined) {
      const calls = this.toolCalls(value.toolCalls, `${path}.toolCalls`);
      if (calls === undefined) return undefined;
      return { kind: "toolCalls", calls, ...(text === undefined ? {} : { text }) };
    }
    if (only === "output") return { kind: "output", output: value.output as JsonValue };
    if (only === "text") return text === undefined ? undefined : { kind: "text", text };
    const error = this.error(value.error, `${path}.error`);
    return error === undefined ? undefined : { kind: "error", error };
  }

  turn(value: unknown, path: string): MockTurn | undefined {
    if (!isRecord(value)) {
      this.add(
        path,
        "expected a turn object.",
        'Write { "output": { … } } or { "toolCalls": [ … ] }.',
      );
      return undefined;
    }
    this.unknownKeys(value, TURN_KEYS, path);
    const answer = this.answer(value, path);
    let delayMs: number | undefined;
    if (value.delayMs !== undefined) {
      const delay = value.delayMs;
      if (
        typeof delay !== "number" ||
        !Number.isInteger(delay) ||
        delay < 0 ||
        delay > MAX_DELAY_MS
      ) {
        this.add(
          `${path}.delayMs`,
          `expected whole milliseconds from 0 to ${MAX_DELAY_MS}, got ${JSON.stringify(delay)}.`,
          "Write the latency in milliseconds, e.g. 1500.",
        );
      } else {
        delayMs = delay;
      }
    }
    let failFirst: MockTurn["failFirst"];
    if (value.failFirst !== undefined) {
      const error = this.error(value.failFirst, `${path}.failFirst`);
      const times = isRecord(value.failFirst) ? (value.failFirst.times ?? 1) : 1;
      if (typeof times !== "number" || !Number.isInteger(times) || times < 1) {
        this.add(
          `${path}.failFirst.times`,
          `expected a whole number of at least 1, got ${JSON.stringify(times)}.`,
          "Write how many requests get the error before the answer, e.g. 2.",
        );
      } else if (error !== undefined) {
        failFirst = { ...error, times };
      }
    }
    if (answer === undefined) return undefined;
    return {
      answer,
      ...(delayMs === undefined ? {} : { delayMs }),
      ...(failFirst === undefined ? {} : { failFirst }),
    };
  }

  rule(value: unknown, path: string): MockRule | undefined {
    if (!isRecord(value)) {
      this.add(
        path,
        "expected a rule object.",
        'Write { "step": "initial.work", "reply": { "output": { … } } }.',
      );
      return undefined;
    }
    this.unknownKeys(value, RULE_KEYS, path);
    const name = this.string(value.name, `${path}.name`, "the rule's name");
    const step = this.string(value.step, `${path}.step`, "a step id");
    const prompt = this.string(value.prompt, `${path}.prompt`, "the text the prompt contains");
    const pattern = this.string(
      value.promptMatches,
      `${path}.promptMatches`,
      "a regular expression",
    );
    let promptMatches: RegExp | undefined;
    if (pattern !== undefined) {
      try {
        promptMatches = new RegExp(pattern);
      } catch (error) {
        this.add(
          `${path}.promptMatches`,
          `not a regular expression: ${(error as Error).message}.`,
          "Fix the expression (JavaScript syntax; escape a backslash as \\\\ in JSON).",
        );
      }
    }
    const hasTurns = value.turns !== undefined;
    if (hasTurns === (value.reply !== undefined)) {
      this.add(
        path,
        `a rule needs exactly one of "turns" (a list) or "reply" (one turn); it has ${hasTurns ? "both" : "neither"}.`,
        'Use "reply" when the step answers in one request, "turns" when it calls tools first.',
      );
      return undefined;
    }
    let turns: (MockTurn | undefined)[];
    if (hasTurns) {
      if (!Array.isArray(value.turns) || value.turns.length === 0) {
        this.add(
          `${path}.turns`,
          "expected a non-empty array of turns.",
          'Write [{ "toolCalls": [ … ] }, { "output": { … } }].',
        );
        return undefined;
      }
      turns = value.turns.map((turn, index) => this.turn(turn, `${path}.turns[${index}]`));
    } else {
      turns = [this.turn(value.reply, `${path}.reply`)];
    }
    if (turns.some((turn) => turn === undefined)) return undefined;
    return {
      path,
      ...(name === undefined ? {} : { name }),
      ...(step === undefined ? {} : { step }),
      ...(prompt === undefined ? {} : { prompt }),
      ...(promptMatches === undefined ? {} : { promptMatches }),
      turns: turns as MockTurn[],
    };
  }
}

/** Parse and check a script's text; `file` names it in every problem. */
export function parseMockScript(text: string, file = "<script>"): Result<MockScript> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return fail([
      problem(MOCK_CODES.unreadable, `${file} is not valid JSON: ${(error as Error).message}.`, {
        file,
        hint: "Fix the JSON (an editor that checks JSON shows where), then run again.",
      }),
    ]);
  }
  const checker = new Checker(file);
  if (!isRecord(data) || !Array.isArray(data.rules)) {
    checker.add(
      "$",
      'expected an object with a "rules" array.',
      'Write { "rules": [ { "step": "initial.work", "reply": { "output": { … } } } ] }.',
    );
    return fail(checker.problems);
  }
  checker.unknownKeys(data, new Set(["$schema", "description", "rules"]), "$");
  const rules = data.rules.map((rule, index) => checker.rule(rule, `$.rules[${index}]`));
  if (checker.problems.length > 0) return fail(checker.problems);
  return ok({ file, rules: rules as MockRule[] });
}

/** Read and check a script file. */
export async function loadMockScript(file: string): Promise<Result<MockScript>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return fail([
      problem(
        MOCK_CODES.unreadable,
        `Cannot read the mock script ${file}: ${(error as Error).message}.`,
        {
          file,
          hint: "Check the path; `climpt init` writes one at .agent/<name>/mock.json.",
        },
      ),
    ]);
  }
  return parseMockScript(text, file);
}
