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
import { STARTER_WORKFLOWS } from "../init/write-starter.ts";
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
import { initWorkflow } from "./init-workflow.ts";

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
  summary:
    "Scaffold a new agent under .agent/<name>/ that validates and runs as is, or a starter workflow (--workflow).",
  usage: [
    "climpt init <name> [--dialect gate|check] [--agent-dir DIR] [--cwd DIR]",
    "climpt init --workflow issue-to-pr [--test-command CMD] [--typecheck-command CMD] [--lint-command CMD] [--cwd DIR]",
  ],
  flags: [
    {
      name: "dialect",
      kind: "choice",
      key: "dialect",
      choices: ["gate", "check"],
      description:
        "gate (default): stepKind, structuredGate, transitions, validators. check: s_<hex> steps judged by check prompts.",
    },
    {
      name: "workflow",
      kind: "choice",
      key: "workflow",
      choices: [...STARTER_WORKFLOWS],
      description:
        "Write a starter set instead of one agent: issue-to-pr = .agent/workflow.json, the agents triage, implement, ci-fixer and review (each with mock.json), and .github/workflows/climpt.yml.",
    },
    {
      name: "test-command",
      kind: "string",
      key: "testCommand",
      valueName: "CMD",
      description:
        "With --workflow: the repository's test command (default: found in package.json scripts, a Makefile, pyproject.toml).",
    },
    {
      name: "typecheck-command",
      kind: "string",
      key: "typecheckCommand",
      valueName: "CMD",
      description:
        "With --workflow: the repository's type-check command (default: found as for tests).",
    },
    {
      name: "lint-command",
      kind: "string",
      key: "lintCommand",
      valueName: "CMD",
      description: "With --workflow: the repository's lint command (default: found as for tests).",
    },
    JSON_FLAG,
    AGENT_DIR_FLAG,
    CWD_FLAG,
    HELP_FLAG,
  ],
  details: [
    "The gate scaffold is a three-step flow initial.work → continuation.work → closure.done. `closing` ends the run only when `git status --porcelain` is empty; otherwise the git-dirty retry prompt (prompts/steps/retry/done/f_failed_git-dirty.md) sends the work back, at most 3 times.",
    "Nothing is overwritten: an existing folder is an error.",
    "--workflow issue-to-pr writes into --cwd (the repository root): implement and ci-fixer finish only when every change is committed and the test, type-check and lint commands exit 0. With no test command found and no terminal to ask on, init stops with AC-CLI-015 naming --test-command.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: ["name"], required: 0 });
    if (!outcome.ok) return outcome.exitCode;
    const { values, positionals } = outcome.parsed;
    const json = values.get("json") === true;
    const workflow = values.get("workflow");
    if (typeof workflow === "string") {
      if (positionals.length > 0 || values.has("dialect") || values.has("agentDir")) {
        return reportUsageProblems(
          io,
          this,
          [
            {
              code: CLI_CODES.conflict,
              severity: "error",
              message:
                "--workflow writes a whole starter set into the repository; it takes no agent name, --dialect or --agent-dir.",
              hint: "Run climpt init --workflow issue-to-pr alone (with --cwd for another folder).",
            },
          ],
          json,
        );
      }
      const given: Record<string, string> = {};
      for (const [kind, key] of [
        ["test", "testCommand"],
        ["typecheck", "typecheckCommand"],
        ["lint", "lintCommand"],
      ] as const) {
        const value = values.get(key);
        if (typeof value === "string") given[kind] = value;
      }
      return initWorkflow(this, io, resolveLocation(values, io).cwd, given, json);
    }
    const stray = ["testCommand", "typecheckCommand", "lintCommand"].filter((key) =>
      values.has(key),
    );
    if (stray.length > 0) {
      return reportUsageProblems(
        io,
        this,
        [
          {
            code: CLI_CODES.conflict,
            severity: "error",
            message:
              "--test-command, --typecheck-command and --lint-command configure the starter set: they go with --workflow.",
            hint: 'climpt init --workflow issue-to-pr --test-command "…"',
          },
        ],
        json,
      );
    }
    const name = positionals[0];
    if (name === undefined) {
      return reportUsageProblems(
        io,
        this,
        [
          {
            code: CLI_CODES.badArgument,
            severity: "error",
            message: "climpt init needs <name>, or --workflow issue-to-pr.",
            hint: `Usage: ${this.usage.join(" | ")}`,
          },
        ],
        json,
      );
    }
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
