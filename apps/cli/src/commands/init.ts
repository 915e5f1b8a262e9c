import { existsSync } from "node:fs";
import * as path from "node:path";
import { findGitLayout } from "@climpt/host-git";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import {
  AGENT_NAME_PATTERN,
  type ScaffoldDialect,
  scaffoldFiles,
  writeScaffold,
} from "../init/write-scaffold.ts";
import { shellWord } from "../progress/format.ts";
import { displayPath } from "../report-problems.ts";
import type { Command } from "./command.ts";
import {
  parseCommandLine,
  reportUsageProblems,
  resolveLocation,
  writeJson,
} from "./command-line.ts";
import { AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG, JSON_FLAG } from "./common-flags.ts";

/**
 * What to do before the first run: the scaffold's git-clean validator passes only on a clean
 * tree, so the new agent folder must be committed, in a git repository. Without this the first
 * run is refused at the close-out until its retries run out.
 */
export function commitAdvice(cwd: string, agentDir: string): string[] {
  // The working tree holding cwd, read from the file system (@climpt/host-git): no git runs.
  let root: string | undefined;
  try {
    root = findGitLayout(cwd)?.workTree;
  } catch {
    root = undefined;
  }
  if (root === undefined) {
    return [
      `${cwd} is not inside a git repository, and the scaffold's git-clean validator needs one. Before the first run:`,
      "  git init",
      `  git add ${shellWord(path.relative(cwd, agentDir) || ".")}`,
      '  git commit -m "Add the agent"',
    ];
  }
  const relative = path.relative(root, agentDir);
  return [
    "Commit the agent before the first run: its git-clean validator passes only on a clean tree, and the new folder is untracked.",
    `  git -C ${shellWord(root)} add ${shellWord(relative)}`,
    `  git -C ${shellWord(root)} commit -m "Add the agent"`,
    "(The run journal ignores itself in git.)",
  ];
}

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
        "gate (default): stepKind, structuredGate, transitions, validators. check: s_<hex> steps judged by check prompts.",
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
        `  climpt run ${ref} --task "describe the task" --mock ${shellWord(path.join(shown, "mock.json"))}   # offline: the model's answers come from mock.json`,
        `  climpt run ${ref} --task "describe the task"   # the real model (ANTHROPIC_API_KEY)`,
        "",
        ...commitAdvice(location.cwd, dir),
        "",
      ].join("\n"),
    );
    return EXIT.ok;
  },
};
