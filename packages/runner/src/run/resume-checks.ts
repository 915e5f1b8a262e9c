import { realpathSync } from "node:fs";
import path from "node:path";
import { findGitLayout, runHostGit } from "@climpt/host-git";
import { type Problem, problem } from "@climpt/model";
import { RUNNER_CODES } from "../codes.ts";
import type { RunEvent, RunStartEvent } from "../run-event.ts";
import { RunnerError } from "../runner-error.ts";
import {
  compareDefinitions,
  type DefinitionRecord,
  digestDefinition,
} from "./definition-digest.ts";

/**
 * What `climpt resume` checks in a journal before it acts on it (docs/design.md#the-journal-and-
 * resume). A journal is evidence of where a run worked, not an instruction: resume works only
 * where the journal was found, with the agent it was found for, on the definition the run had.
 */

function real(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

function mismatch(file: string, detail: string, hint?: string): RunnerError {
  return new RunnerError({
    code: RUNNER_CODES.resumeOtherRun,
    message: `The journal ${file} does not describe a run of this agent in this folder: ${detail}. It was not resumed, and nothing ran.`,
    file,
    path: "run_start",
    hint:
      hint ??
      "Resume a run from the folder it was started in, with the agent it was started with (as `climpt runs` lists it). A journal that says otherwise was edited: start a new run.",
  });
}

/** The worktrees git knows for the repository at `repoDir`: path → the branch checked out. */
async function registeredWorktrees(
  repoDir: string,
  env: Readonly<Record<string, string>>,
): Promise<Map<string, string | null>> {
  const worktrees = new Map<string, string | null>();
  let layout: ReturnType<typeof findGitLayout>;
  try {
    layout = findGitLayout(repoDir);
  } catch {
    layout = null;
  }
  if (layout === null) return worktrees;
  const listed = await runHostGit(layout, ["worktree", "list", "--porcelain"], {
    env,
    timeoutMs: 30_000,
  });
  if (listed.exitCode !== 0) return worktrees;
  let current: string | null = null;
  for (const line of listed.stdout.split("\n")) {
    if (line.startsWith("worktree ")) {
      current = real(line.slice("worktree ".length));
      worktrees.set(current, null);
    } else if (current !== null && line.startsWith("branch refs/heads/")) {
      worktrees.set(current, line.slice("branch refs/heads/".length));
    }
  }
  return worktrees;
}

/**
 * The journal's `run_start` must describe a run of this agent started here: its run id is the
 * journal's name; its `originCwd` is the folder resume runs in, whose logging directory held the
 * journal; its agent is the one resume loaded (by name); and it worked in `originCwd` itself
 * (plain mode) or in a worktree of that repository on the run's branch (worktree mode).
 * Otherwise `RUN-RESUME-005`, before anything runs: a journal edited to name HOME as the working
 * folder must not make resume work there. A relocated run (`resumeIn`) works where its caller
 * says, so only the run id is checked then.
 */
export async function checkResumeLocation(options: {
  readonly runId: string;
  readonly start: RunStartEvent;
  readonly file: string;
  /** The folder resume runs in (`RunOptions.cwd`), where the journal was found. */
  readonly here: string;
  /** The name of the agent resume loaded. */
  readonly agentName: string;
  readonly relocated: boolean;
  readonly env: Readonly<Record<string, string>>;
}): Promise<void> {
  const { start, file } = options;
  if (start.runId !== options.runId) {
    throw mismatch(file, `its run_start belongs to run "${start.runId}", not "${options.runId}"`);
  }
  if (options.relocated) return;
  const here = real(options.here);
  if (typeof start.originCwd !== "string" || real(start.originCwd) !== here) {
    throw mismatch(
      file,
      `it says the run started in ${String(start.originCwd)}, but it was found in ${here}'s logging folder`,
    );
  }
  // The agent by name: its folder may have moved since (a copy, another checkout); what it holds
  // is what the definition digest compares (checkResumeDefinition).
  if (start.agent !== options.agentName) {
    throw mismatch(
      file,
      `it says the run's agent was "${String(start.agent)}", but resume loaded "${options.agentName}"`,
      "Resume with the agent the run started with (`--agent <its folder>`), from the folder it was started in.",
    );
  }
  if (typeof start.cwd !== "string") throw mismatch(file, "it names no working folder");
  const worktree = start.worktree;
  if (worktree === null) {
    if (real(start.cwd) !== here) {
      throw mismatch(file, `it says the run worked in ${start.cwd}, not in ${here}`);
    }
    return;
  }
  if (real(start.cwd) !== real(worktree.path)) {
    throw mismatch(file, `it says the run worked in ${start.cwd}, not in its worktree`);
  }
  const branch = (await registeredWorktrees(here, options.env)).get(real(worktree.path));
  if (branch !== worktree.branch) {
    throw mismatch(
      file,
      branch === undefined
        ? `${worktree.path} is not a worktree of the repository at ${here}`
        : `the worktree ${worktree.path} has ${branch === null ? "no branch" : `branch "${branch}"`} checked out, not the run's "${worktree.branch}"`,
      `Check out "${worktree.branch}" in ${worktree.path} again, or start a new run.`,
    );
  }
}

/** The definition the run last ran with: the latest resume's record, else its start's. */
function recordedDefinition(events: readonly RunEvent[]): DefinitionRecord | undefined {
  let recorded: DefinitionRecord | undefined;
  for (const event of events) {
    if (event.type === "run_start" || event.type === "run_resume") {
      recorded = event.definition ?? recorded;
    }
  }
  return recorded;
}

/**
 * The agent folder must hold what it held when the run last started or resumed: a definition
 * changed since (by the model of an agent allowed to, by a checkout, by hand) would run other
 * hooks, validators and prompts against a half-done run. Changed: `RUN-RESUME-006`, naming the
 * files, unless the caller accepts it (`acceptChangedDefinition`, CLI
 * `--accept-changed-definition`), which the run then records as a warning. A journal from
 * before digests were recorded, or a folder too large to digest, resumes with a warning.
 * Returns the digest now (for `run_resume`) and the warnings.
 */
export function checkResumeDefinition(options: {
  readonly events: readonly RunEvent[];
  readonly agentDir: string;
  /** Folders inside the agent folder the digest leaves out (the journal's). */
  readonly excluded: readonly string[];
  readonly file: string;
  readonly accept: boolean;
  readonly resumeCommand: string;
}): { readonly definition: DefinitionRecord; readonly warnings: readonly Problem[] } {
  const definition = digestDefinition(options.agentDir, options.excluded);
  const recorded = recordedDefinition(options.events);
  if (recorded === undefined) {
    return {
      definition,
      warnings: [
        problem(
          RUNNER_CODES.resumeDefinitionUncompared,
          `The journal ${options.file} records no digest of the agent definition (it predates them), so resume could not check that ${options.agentDir} is unchanged since the run started.`,
          {
            severity: "warning",
            hint: "Check the agent folder (git log / git diff) if the run may have changed it.",
          },
        ),
      ],
    };
  }
  const comparison = compareDefinitions(recorded, definition);
  if (comparison.kind === "same") return { definition, warnings: [] };
  if (comparison.kind === "unknown") {
    return {
      definition,
      warnings: [
        problem(
          RUNNER_CODES.resumeDefinitionUncompared,
          `The agent definition could not be compared with the one the run started with: ${comparison.reason}.`,
          { severity: "warning", hint: "Check the agent folder by hand before trusting the run." },
        ),
      ],
    };
  }
  const files =
    comparison.files === null || comparison.files.length === 0
      ? ""
      : ` (${comparison.files.slice(0, 10).join(", ")}${comparison.files.length > 10 ? `, and ${comparison.files.length - 10} more` : ""})`;
  const message = `The agent definition in ${options.agentDir} changed since the run started${files}: its hooks, validators, sandbox setting and prompts may not be the ones the run began with.`;
  if (options.accept) {
    return {
      definition,
      warnings: [
        problem(
          RUNNER_CODES.resumeDefinitionChanged,
          `${message} Resumed anyway (--accept-changed-definition).`,
          {
            severity: "warning",
          },
        ),
      ],
    };
  }
  throw new RunnerError({
    code: RUNNER_CODES.resumeDefinitionChanged,
    message: `${message} The run was not resumed, and nothing ran.`,
    file: options.file,
    hint: `Review the change (git diff -- ${options.agentDir}). Start a new run, or, if you made the change and want this run to continue under it, \`${options.resumeCommand} --accept-changed-definition\`.`,
  });
}
