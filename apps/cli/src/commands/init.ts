import { existsSync } from "node:fs";
import * as path from "node:path";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import {
  AGENT_NAME_PATTERN,
  type ScaffoldDialect,
  scaffoldFiles,
  writeScaffold,
} from "../init/write-scaffold.ts";
import { displayPath } from "../report-problems.ts";
import type { Command } from "./command.ts";
import {
  parseCommandLine,
  reportUsageProblems,
  resolveLocation,
  writeJson,
} from "./command-line.ts";
import { AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG, JSON_FLAG } from "./common-flags.ts";

export const initCommand: Command = {
  name: "init",
  summary: "Scaffold a new agent under .agent/<name>/ that validates and runs as is.",
  usage: ["climpt init <name> [--dialect gate|check] [--agent-dir DIR] [--cwd DIR]"],
  flags: [
    {
      name: "dialect",
      kind: "choice",
      key: "dialect",
      choices: ["gate", "check"],
      description:
        "gate (default): stepKind, structuredGate, transitions, validators (seed 003). check: s_<hex> steps judged by check prompts (seed 000).",
    },
    JSON_FLAG,
    AGENT_DIR_FLAG,
    CWD_FLAG,
    HELP_FLAG,
  ],
  details: [
    "The gate scaffold is a three-step flow initial.work → continuation.work → closure.done. `closing` ends the run only when `git status --porcelain` is empty; otherwise the git-dirty retry prompt (prompts/steps/retry/done/f_failed_git-dirty.md) sends the work back, at most 3 times.",
    "Nothing is overwritten: an existing folder is an error.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: ["name"] });
    if (!outcome.ok) return outcome.exitCode;
    const { values, positionals } = outcome.parsed;
    const json = values.get("json") === true;
    const name = positionals[0] as string;
    if (!AGENT_NAME_PATTERN.test(name)) {
      return reportUsageProblems(
        io,
        this,
        [
          {
            code: CLI_CODES.initTarget,
            severity: "error",
            message: `"${name}" is not a usable agent name.`,
            hint: "Use lower-case letters, digits and dashes, starting with a letter or digit: climpt init fix-bug.",
          },
        ],
        json,
      );
    }
    const location = resolveLocation(values, io);
    const dir = path.join(location.agentDir ?? path.join(location.cwd, ".agent"), name);
    if (existsSync(dir)) {
      return reportUsageProblems(
        io,
        this,
        [
          {
            code: CLI_CODES.initTarget,
            severity: "error",
            message: `${displayPath(dir, io.cwd)} already exists; init never overwrites.`,
            hint: `Pick another name, or remove the folder first.`,
          },
        ],
        json,
      );
    }
    const dialect: ScaffoldDialect = values.get("dialect") === "check" ? "check" : "gate";
    const files = scaffoldFiles(name, dialect);
    await writeScaffold(dir, files);
    if (json)
      writeJson(io, { ok: true, name, dialect, dir, files: files.map((file) => file.path) });
    const shown = displayPath(dir, io.cwd);
    // Outside <cwd>/.agent the name alone would not find it: name the folder instead.
    const ref = location.agentDir === undefined && location.cwd === io.cwd ? name : shown;
    io.stderr.write(
      [
        `Created ${shown}/ (${dialect} dialect):`,
        ...files.map((file) => `  ${file.path}`),
        "",
        "Next:",
        `  climpt validate ${ref}`,
        `  climpt graph ${ref}`,
        `  climpt run ${ref} --task "describe the task"`,
        "",
        `Runs keep a journal in tmp/climpt/logs/${name}/: make sure git ignores it (e.g. tmp/ in .gitignore), or the git-clean check will see it.`,
        "",
      ].join("\n"),
    );
    return EXIT.ok;
  },
};
