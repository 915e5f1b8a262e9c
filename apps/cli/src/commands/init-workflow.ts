import path from "node:path";
import type { Problem } from "@climpt/model";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import {
  CHECK_KINDS,
  type CheckKind,
  detectChecks,
  type RepositoryCheck,
} from "../init/detect-checks.ts";
import { STARTER_ENTRY_LABEL } from "../init/starter-workflow.ts";
import {
  existingTargets,
  STARTER_AGENTS,
  starterFiles,
  writeStarter,
} from "../init/write-starter.ts";
import { CLI_VERSION } from "../version.ts";
import type { Command } from "./command.ts";
import { reportUsageProblems, writeJson } from "./command-line.ts";

const LABEL: Readonly<Record<CheckKind, string>> = {
  test: "test",
  typecheck: "type-check",
  lint: "lint",
};

/**
 * The checks the starter's completion chain runs: the flags, else what the repository declares.
 * With no test command found, a person at a terminal is asked for each missing one (empty: none);
 * anywhere else it is a coded error naming the flag, since a completion chain without the
 * repository's tests would let any change through.
 */
async function checksFor(
  root: string,
  given: Partial<Record<CheckKind, string>>,
  io: CliIo,
): Promise<{ ok: true; checks: RepositoryCheck[] } | { ok: false; problem: Problem }> {
  const checks = detectChecks(root, given);
  if (checks.some((check) => check.kind === "test")) return { ok: true, checks };
  if (io.ask === undefined) {
    return {
      ok: false,
      problem: {
        code: CLI_CODES.noCheckCommand,
        severity: "error",
        message: `No test command found in ${root}: no package.json "test" script, no Makefile "test" target, no pytest in pyproject.toml. The implement agent's completion chain needs one.`,
        hint: 'Pass it: --test-command "npm test" (and --typecheck-command, --lint-command for the others, when the repository has them).',
      },
    };
  }
  const asked: Partial<Record<CheckKind, string>> = { ...given };
  for (const kind of CHECK_KINDS) {
    if (checks.some((check) => check.kind === kind)) continue;
    const answer = await io.ask(`The repository's ${LABEL[kind]} command (empty: none): `);
    if (answer !== "") asked[kind] = answer;
  }
  const answered = detectChecks(root, asked);
  if (answered.some((check) => check.kind === "test")) return { ok: true, checks: answered };
  return {
    ok: false,
    problem: {
      code: CLI_CODES.noCheckCommand,
      severity: "error",
      message: "No test command was given: the implement agent's completion chain needs one.",
      hint: 'Run init again and give one, or pass --test-command "…".',
    },
  };
}

/** `climpt init --workflow issue-to-pr`: the starter set for this repository. */
export async function initWorkflow(
  command: Command,
  io: CliIo,
  root: string,
  given: Partial<Record<CheckKind, string>>,
  json: boolean,
): Promise<number> {
  const found = await checksFor(root, given, io);
  if (!found.ok) return reportUsageProblems(io, command, [found.problem], json);
  const files = starterFiles(root, found.checks, CLI_VERSION);
  const existing = existingTargets(root, files);
  if (existing.length > 0) {
    return reportUsageProblems(
      io,
      command,
      existing.map((target) => ({
        code: CLI_CODES.initTarget,
        severity: "error",
        message: `${path.join(root, target)} already exists; init never overwrites.`,
        hint: "Move it aside (or remove it), then run init again; nothing was written.",
      })),
      json,
    );
  }
  await writeStarter(root, files);
  if (json) {
    writeJson(io, {
      ok: true,
      workflow: "issue-to-pr",
      dir: root,
      checks: found.checks,
      files: files.map((file) => file.path),
    });
  }
  io.stderr.write(
    [
      `Wrote the issue-to-pr workflow in ${root}:`,
      "  .agent/workflow.json            triage → implementing → ci → reviewing → done (blocked on failure)",
      ...STARTER_AGENTS.map(
        (agent) =>
          `  .agent/${agent}/${" ".repeat(Math.max(1, 23 - agent.length))}with its mock.json`,
      ),
      "  .github/workflows/climpt.yml    climpt orchestrate on a label, hourly, and by hand",
      "",
      "The completion chain of implement and ci-fixer runs:",
      ...found.checks.map(
        (check) => `  ${LABEL[check.kind]}: ${check.command}   (${check.source})`,
      ),
      "",
      "Next:",
      // The commit comes first: implement's and ci-fixer's git-clean check would otherwise see
      // the new files as work left uncommitted and refuse the offline runs' close-out.
      '  git add -A && git commit -m "climpt: the issue-to-pr workflow"',
      ...STARTER_AGENTS.map(
        (agent) => `  climpt run ${agent} --issue 1 --mock .agent/${agent}/mock.json   # offline`,
      ),
      "  git push",
      "  gh secret set ANTHROPIC_API_KEY && gh secret set CLIMPT_GITHUB_TOKEN   # see climpt.yml's comments",
      `  climpt labels sync && gh issue edit <n> --add-label ${STARTER_ENTRY_LABEL}`,
      "",
    ].join("\n"),
  );
  return EXIT.ok;
}
