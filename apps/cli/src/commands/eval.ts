import { writeFileSync } from "node:fs";
import path from "node:path";
import type { CliIo } from "../cli-io.ts";
import type { CaseReport } from "../eval/eval-case.ts";
import { formatEvalTable, formatJunit, formatMarkdown } from "../eval/eval-report.ts";
import { readSuite } from "../eval/eval-suite.ts";
import { DEFAULT_EVAL_CONCURRENCY, runCases } from "../eval/run-cases.ts";
import { EXIT } from "../exit-codes.ts";
import type { Command } from "./command.ts";
import {
  booleanValue,
  numberValue,
  parseCommandLine,
  reportUsageProblems,
  stringValue,
  writeJson,
} from "./command-line.ts";
import { HELP_FLAG, JSON_FLAG } from "./common-flags.ts";

export const evalCommand: Command = {
  name: "eval",
  summary:
    "Replay a suite of recorded runs offline and check each against its expectations (CI for prompts).",
  usage: [
    "climpt eval <suite.json> [--concurrency N] [--live] [--junit FILE] [--markdown FILE] [--keep] [--json]",
  ],
  flags: [
    {
      name: "live",
      kind: "boolean",
      key: "live",
      description:
        "Re-record a case whose requests changed: the cassette serves what it holds, the model (ANTHROPIC_API_KEY) answers from the first changed step on; the new cassette replaces the old one when the case passes.",
    },
    {
      name: "junit",
      kind: "string",
      key: "junit",
      valueName: "FILE",
      description: "Also write the results as JUnit XML.",
    },
    {
      name: "markdown",
      kind: "string",
      key: "markdown",
      valueName: "FILE",
      description: "Also write a markdown summary (a CI job summary, a pull request comment).",
    },
    {
      name: "concurrency",
      kind: "integer",
      key: "concurrency",
      valueName: "N",
      min: 1,
      description: `Cases run at once (default ${DEFAULT_EVAL_CONCURRENCY}: the cores, from 2 to 4). Reports are in the suite's order whatever order the cases finish in.`,
    },
    {
      name: "keep",
      kind: "boolean",
      key: "keep",
      description: "Keep each case's working folder (its repository and journal).",
    },
    JSON_FLAG,
    HELP_FLAG,
  ],
  details: [
    'The suite is a JSON file: { "cases": [{ "name", "agent", "cassette", "args", "repo", "maxIterations", "expect": { "success", "finalStep", "steps", "validatorsPassed", "errorCode", "maxCostUsd", "maxIterations" } }] }; paths are relative to it. Each case runs its agent in a fresh git repository (a copy of "repo") with its model replies replayed from the cassette: no network, no key.',
    "A case whose run sends a request the cassette does not hold (a prompt, schema or registry changed since it was recorded: the request's fingerprint differs) stops at that step, the first whose request changed, and reports `needs a live run from <step>`; --live records it again from there.",
    "Cases run --concurrency at a time, each in folders of its own; every report (the table, --json, JUnit, markdown) lists them in the suite's order. With --live, cases that share a cassette run one after another (a re-recording replaces the cassette).",
    'A suite file may name its JSON Schema: "$schema" pointing at climpt/eval-suite.schema.json (in the climpt package) lets an editor check and complete it.',
    "Exit 0 when every case passed, 1 when one did not, 2 for a suite that cannot be used (AC-EVAL-001…003). --json prints {passed, cases: [{name, status, fromStep, details, steps, iterations, costUsd, durationMs}]}.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: ["suite"] });
    if (!outcome.ok) return outcome.exitCode;
    const { values, positionals } = outcome.parsed;
    const json = booleanValue(values, "json") === true;
    const live = booleanValue(values, "live") === true;
    const file = path.resolve(io.cwd, positionals[0] as string);
    const read = readSuite(file);
    if (!read.ok) return reportUsageProblems(io, this, read.problems, json);
    if (live && (io.env.ANTHROPIC_API_KEY ?? "") === "") {
      return reportUsageProblems(
        io,
        this,
        [
          {
            code: "AC-CLI-009",
            severity: "error",
            message: "--live asks the model, and ANTHROPIC_API_KEY is not set.",
            hint: "export ANTHROPIC_API_KEY=… (ANTHROPIC_BASE_URL selects another endpoint), or run without --live.",
          },
        ],
        json,
      );
    }
    const reports: CaseReport[] = await runCases(read.suite.cases, {
      live,
      keep: booleanValue(values, "keep") === true,
      concurrency: numberValue(values, "concurrency") ?? DEFAULT_EVAL_CONCURRENCY,
      // In the suite's order, as each case and those before it are done: the same lines every run.
      onReport: (report) => {
        if (!json) io.stderr.write(`eval: ${report.name}: ${report.status}\n`);
      },
    });
    const name = path.basename(file);
    for (const [key, format] of [
      ["junit", formatJunit],
      ["markdown", formatMarkdown],
    ] as const) {
      const target = stringValue(values, key);
      if (target !== undefined) writeFileSync(path.resolve(io.cwd, target), format(name, reports));
    }
    const passed = reports.every((report) => report.status === "passed");
    if (json) writeJson(io, { passed, cases: reports });
    else io.stderr.write(formatEvalTable(reports));
    return passed ? EXIT.ok : EXIT.runFailed;
  },
};
