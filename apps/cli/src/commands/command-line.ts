import * as path from "node:path";
import type { Problem } from "@climpt/model";
import { type ParsedFlags, parseFlags } from "../args/parse-flags.ts";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { formatCommandHelp } from "../help.ts";
import { formatProblemsByFile, problemJson } from "../report-problems.ts";
import type { Command } from "./command.ts";

export interface PositionalRule {
  /** Names for messages, in order: `["agent"]`. */
  readonly names: readonly string[];
  /** How many are required (the rest are optional). Default: all. */
  readonly required?: number;
}

export type ParseOutcome =
  | { readonly ok: true; readonly parsed: ParsedFlags }
  | { readonly ok: false; readonly exitCode: number };

/** Whether `--json` is among the arguments, even when they do not parse: errors honour it too. */
export function wantsJson(argv: readonly string[]): boolean {
  for (const token of argv) {
    if (token === "--") return false;
    if (token === "--json" || token === "--json=true") return true;
  }
  return false;
}

/** Problems with the positional arguments, by the rule. */
export function positionalProblems(
  command: Command,
  positionals: readonly string[],
  rule: PositionalRule,
): Problem[] {
  const required = rule.required ?? rule.names.length;
  const problems: Problem[] = [];
  if (positionals.length < required) {
    const missing = rule.names.slice(positionals.length, required).map((name) => `<${name}>`);
    problems.push({
      code: CLI_CODES.badArgument,
      severity: "error",
      message: `climpt ${command.name} needs ${missing.join(" ")}.`,
      hint: `Usage: ${command.usage[0] ?? `climpt ${command.name}`}`,
    });
  } else if (positionals.length > rule.names.length) {
    const extra = positionals.slice(rule.names.length);
    problems.push({
      code: CLI_CODES.badArgument,
      severity: "error",
      message: `Unexpected argument${extra.length === 1 ? "" : "s"} ${extra.map((text) => `"${text}"`).join(", ")}.`,
      hint: `Usage: ${command.usage[0] ?? `climpt ${command.name}`}. A boolean flag takes no separate value: write --flag=false or --no-flag.`,
    });
  }
  return problems;
}

/** Prints usage problems (stderr, and the one JSON object on stdout with --json); exit 2. */
export function reportUsageProblems(
  io: CliIo,
  command: Command | undefined,
  problems: readonly Problem[],
  json: boolean,
): number {
  io.stderr.write(formatProblemsByFile(problems, io.cwd));
  io.stderr.write(
    command === undefined
      ? "Run `climpt --help` for the commands.\n"
      : `Run \`climpt ${command.name} --help\` for usage.\n`,
  );
  if (json) writeJsonError(io, problems);
  return EXIT.usage;
}

/** The `--json` object of a command that ended before doing its work (exit 2). */
export function writeJsonError(io: CliIo, problems: readonly Problem[]): void {
  const first = problems.find((problem) => problem.severity !== "warning") ?? problems[0];
  const error =
    first === undefined
      ? { code: CLI_CODES.badArgument, message: "Bad usage." }
      : {
          code: first.code,
          message: first.message,
          ...(first.hint === undefined ? {} : { hint: first.hint }),
        };
  writeJson(io, { ok: false, error, problems: problems.map(problemJson) });
}

export function writeJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Parses a command's flags; prints help or every usage problem when there is one. */
export function parseCommandLine(
  command: Command,
  argv: readonly string[],
  io: CliIo,
  rule: PositionalRule,
): ParseOutcome {
  const parsed = parseFlags(argv, command.flags);
  if (parsed.help) {
    io.stdout.write(formatCommandHelp(command));
    return { ok: false, exitCode: EXIT.ok };
  }
  const problems = [...parsed.problems];
  if (!problems.some((problem) => problem.code === CLI_CODES.unknownFlag)) {
    problems.push(...positionalProblems(command, parsed.positionals, rule));
  }
  if (problems.length > 0) {
    return { ok: false, exitCode: reportUsageProblems(io, command, problems, wantsJson(argv)) };
  }
  return { ok: true, parsed };
}

/** The working directory and agent folder the flags name, absolute. */
export function resolveLocation(
  values: ParsedFlags["values"],
  io: CliIo,
): { readonly cwd: string; readonly agentDir?: string } {
  const cwdFlag = values.get("cwd");
  const agentDirFlag = values.get("agentDir");
  const cwd = typeof cwdFlag === "string" ? path.resolve(io.cwd, cwdFlag) : io.cwd;
  return typeof agentDirFlag === "string"
    ? { cwd, agentDir: path.resolve(io.cwd, agentDirFlag) }
    : { cwd };
}

export function stringValue(values: ParsedFlags["values"], key: string): string | undefined {
  const value = values.get(key);
  return typeof value === "string" ? value : undefined;
}

export function numberValue(values: ParsedFlags["values"], key: string): number | undefined {
  const value = values.get(key);
  return typeof value === "number" ? value : undefined;
}

export function booleanValue(values: ParsedFlags["values"], key: string): boolean | undefined {
  const value = values.get(key);
  return typeof value === "boolean" ? value : undefined;
}
