import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isRecord, type JsonValue, type Problem } from "@climpt/model";
import { EVAL_CODES } from "./eval-codes.ts";

/**
 * What a case expects of its run (all optional; a case with none passes when its run replays to
 * an end). Each is checked against the run's result and journal events.
 */
export interface CaseExpectations {
  /** The run completed (`RunResult.success`). */
  readonly success?: boolean;
  /** The step the run ended at (`RunResult.finalStepId`). */
  readonly finalStep?: string;
  /** The steps executed, in order (`RunResult.state.history`'s step ids). */
  readonly steps?: readonly string[];
  /** Validators whose last run in the run passed. */
  readonly validatorsPassed?: readonly string[];
  /** The run's error code, or its family (`AGENT_MAX_ITERATIONS`, `RUN-BUDGET-001`). */
  readonly errorCode?: string;
  /** At most this cost (USD, as the cassette recorded it). */
  readonly maxCostUsd?: number;
  /** At most this many iterations. */
  readonly maxIterations?: number;
}

/** One case of a suite: an agent run replayed from a cassette, and what it must do. */
export interface EvalCase {
  readonly name: string;
  /** The agent folder (absolute). */
  readonly agent: string;
  readonly args: Readonly<Record<string, JsonValue>>;
  /** The cassette the run is replayed from (absolute). */
  readonly cassette: string;
  /** A folder copied into a fresh git repository the run works in (absolute); absent: an empty one. */
  readonly repo?: string;
  /** The run's iteration cap (`--max-iterations`). */
  readonly maxIterations?: number;
  readonly expect: CaseExpectations;
}

/**
 * The fields of a suite, a case and a case's expectations: the loader refuses any other, and the
 * published eval-suite.schema.json lists exactly these (its test holds the two together).
 */
export const SUITE_KEYS = ["$schema", "cases"] as const;
export const CASE_KEYS = [
  "name",
  "agent",
  "cassette",
  "repo",
  "args",
  "maxIterations",
  "expect",
] as const;
export const EXPECTATION_KEYS = [
  "success",
  "finalStep",
  "steps",
  "validatorsPassed",
  "errorCode",
  "maxCostUsd",
  "maxIterations",
] as const;

/** Reports each key of `record` that is not one of `known`, at `at`. */
function unknownKeys(
  record: Record<string, unknown>,
  known: readonly string[],
  at: string,
  what: { readonly one: string; readonly many: string },
  report: Report,
): void {
  for (const key of Object.keys(record)) {
    if (!known.includes(key)) {
      report(
        EVAL_CODES.badField,
        `${at}.${key}`,
        `${at}.${key} is not ${what.one}.`,
        `${what.many}: ${known.join(", ")}.`,
      );
    }
  }
}

export interface EvalSuite {
  readonly file: string;
  readonly cases: readonly EvalCase[];
}

export type SuiteRead =
  | { readonly ok: true; readonly suite: EvalSuite }
  | { readonly ok: false; readonly problems: readonly Problem[] };

/** Reads a suite file and checks every field; each problem names the file and its JSON path. */
export function readSuite(file: string): SuiteRead {
  let raw: unknown;
  try {
    if (!statSync(file).isFile()) throw new Error("not a regular file");
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      problems: [
        {
          code: EVAL_CODES.unreadable,
          severity: "error",
          message: `The suite ${file} cannot be read as JSON: ${why}`,
          file,
          hint: 'Pass the suite\'s JSON file: { "cases": [{ "name", "agent", "cassette", "args", "expect" }] }.',
        },
      ],
    };
  }
  const problems: Problem[] = [];
  const report = (code: string, at: string, message: string, hint: string): void => {
    problems.push({ code, severity: "error", message, file, path: at, hint });
  };
  const base = path.dirname(file);
  if (!isRecord(raw) || !Array.isArray(raw.cases) || raw.cases.length === 0) {
    report(
      EVAL_CODES.badField,
      "$.cases",
      "The suite has no cases: $.cases must be a non-empty array.",
      'Write { "cases": [{ "name": "…", "agent": "…", "cassette": "…" }] }.',
    );
    return { ok: false, problems };
  }
  unknownKeys(raw, SUITE_KEYS, "$", { one: "a suite field", many: "Suite fields" }, report);
  if (raw.$schema !== undefined && typeof raw.$schema !== "string") {
    report(
      EVAL_CODES.badField,
      "$.$schema",
      "$.$schema must be a string: the suite's JSON Schema, for editors.",
      'Write "$schema": "node_modules/climpt/eval-suite.schema.json", or leave it out.',
    );
  }
  const cases: EvalCase[] = [];
  const names = new Set<string>();
  raw.cases.forEach((entry: unknown, index: number) => {
    const at = `$.cases[${index}]`;
    if (!isRecord(entry)) {
      report(EVAL_CODES.badField, at, `${at} must be an object.`, "Write the case as an object.");
      return;
    }
    unknownKeys(entry, CASE_KEYS, at, { one: "a case field", many: "Case fields" }, report);
    const fields = new CaseFields(entry, at, base, report);
    const name = fields.text("name", true);
    if (name !== undefined && names.has(name)) {
      report(
        EVAL_CODES.badField,
        `${at}.name`,
        `Two cases are named "${name}".`,
        "Give each case its own name: reports and JUnit use it.",
      );
    }
    if (name !== undefined) names.add(name);
    const agent = fields.existing("agent", "folder");
    const cassette = fields.existing("cassette", "file");
    const repo = entry.repo === undefined ? undefined : fields.existing("repo", "folder");
    const args = entry.args === undefined ? {} : entry.args;
    if (!isRecord(args)) {
      report(
        EVAL_CODES.badField,
        `${at}.args`,
        `${at}.args must be an object of parameters.`,
        'Write e.g. "args": { "issue": 1 }.',
      );
    }
    const maxIterations = fields.positive(entry, "maxIterations", at, true);
    const expect = readExpectations(entry.expect, `${at}.expect`, report);
    if (name === undefined || agent === undefined || cassette === undefined || !isRecord(args))
      return;
    cases.push({
      name,
      agent,
      cassette,
      args: args as Record<string, JsonValue>,
      ...(repo === undefined ? {} : { repo }),
      ...(maxIterations === undefined ? {} : { maxIterations }),
      expect: expect ?? {},
    });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, suite: { file, cases } };
}

type Report = (code: string, at: string, message: string, hint: string) => void;

/** One case's fields, each checked where it is read. */
class CaseFields {
  constructor(
    private readonly entry: Record<string, unknown>,
    private readonly at: string,
    private readonly base: string,
    private readonly report: Report,
  ) {}

  text(key: string, required: boolean): string | undefined {
    const value = this.entry[key];
    if (value === undefined && !required) return undefined;
    if (typeof value === "string" && value.trim() !== "") return value;
    this.report(
      EVAL_CODES.badField,
      `${this.at}.${key}`,
      `${this.at}.${key} must be a non-empty string.`,
      `Add "${key}": "…" to the case.`,
    );
    return undefined;
  }

  /** A path relative to the suite file that must exist as `kind`. */
  existing(key: string, kind: "file" | "folder"): string | undefined {
    const written = this.text(key, true);
    if (written === undefined) return undefined;
    const resolved = path.resolve(this.base, written);
    const found = existsSync(resolved) ? statSync(resolved) : undefined;
    if (found === undefined || (kind === "file" ? !found.isFile() : !found.isDirectory())) {
      this.report(
        EVAL_CODES.missingPath,
        `${this.at}.${key}`,
        `${this.at}.${key}: no ${kind} ${resolved}.`,
        key === "cassette"
          ? "Paths are relative to the suite file; record the cassette with `climpt run <agent> … --record <file>`."
          : "Paths are relative to the suite file.",
      );
      return undefined;
    }
    return resolved;
  }

  positive(
    record: Record<string, unknown>,
    key: string,
    at: string,
    integer: boolean,
  ): number | undefined {
    return positiveField(record, key, at, integer, this.report);
  }
}

function positiveField(
  record: Record<string, unknown>,
  key: string,
  at: string,
  integer: boolean,
  report: Report,
): number | undefined {
  const value = record[key];
  if (value === undefined) return undefined;
  if (
    typeof value === "number" &&
    value >= 0 &&
    (!integer || (Number.isInteger(value) && value > 0))
  ) {
    return value;
  }
  report(
    EVAL_CODES.badField,
    `${at}.${key}`,
    `${at}.${key} must be ${integer ? "a whole number of at least 1" : "a number of at least 0"}.`,
    `Write "${key}": ${integer ? "7" : "0.5"}.`,
  );
  return undefined;
}

function readExpectations(raw: unknown, at: string, report: Report): CaseExpectations | undefined {
  if (raw === undefined) return {};
  if (!isRecord(raw)) {
    report(
      EVAL_CODES.badField,
      at,
      `${at} must be an object.`,
      'Write e.g. "expect": { "success": true }.',
    );
    return undefined;
  }
  unknownKeys(raw, EXPECTATION_KEYS, at, { one: "an expectation", many: "Expectations" }, report);
  const expect: { -readonly [K in keyof CaseExpectations]: CaseExpectations[K] } = {};
  if (raw.success !== undefined) {
    if (typeof raw.success === "boolean") expect.success = raw.success;
    else
      report(
        EVAL_CODES.badField,
        `${at}.success`,
        `${at}.success must be true or false.`,
        'Write "success": true.',
      );
  }
  for (const key of ["finalStep", "errorCode"] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value === "string" && value !== "") expect[key] = value;
    else
      report(
        EVAL_CODES.badField,
        `${at}.${key}`,
        `${at}.${key} must be a non-empty string.`,
        `Write "${key}": "…".`,
      );
  }
  for (const key of ["steps", "validatorsPassed"] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (Array.isArray(value) && value.every((item) => typeof item === "string"))
      expect[key] = value as string[];
    else
      report(
        EVAL_CODES.badField,
        `${at}.${key}`,
        `${at}.${key} must be an array of ${key === "steps" ? "step ids" : "validator names"}.`,
        `Write "${key}": ["…"].`,
      );
  }
  const cost = positiveField(raw, "maxCostUsd", at, false, report);
  if (cost !== undefined) expect.maxCostUsd = cost;
  const iterations = positiveField(raw, "maxIterations", at, true, report);
  if (iterations !== undefined) expect.maxIterations = iterations;
  return expect;
}
