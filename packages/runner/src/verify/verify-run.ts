/**
 * `climpt verify` (docs/design.md#the-completion-ledger): re-runs the validators of a run's last
 * passing validation attempt on the commit its ledger recorded (or another), in a scratch
 * worktree of the run's repository, sandboxed as the run's validators are, and says per
 * validator whether the result still holds — and whether the run's branch has moved past it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createExecaCommandRunner, runValidation } from "@climpt/completion-chain";
import { findGitLayout, type GitLayout, runHostGit } from "@climpt/host-git";
import { collectSecrets, createScrubber, problem } from "@climpt/model";
import {
  type LedgerAttempt,
  lastPassingAttempt,
  ledgerOf,
  type RunEvent,
  type RunStartEvent,
} from "@climpt/protocol";
import { findValidationStep } from "@climpt/router";
import { resolveRunRepository } from "@climpt/tools";
import { RUNNER_CODES } from "../codes.ts";
import { setVerifiedStatus } from "../evidence/ledger-evidence.ts";
import { validatorLauncherFor } from "../phases/command-sandboxes.ts";
import { loadAgentDefinition } from "../run/agent-location.ts";
import { runProtectedPaths } from "../run/run-protected-paths.ts";
import { commandEnvNames } from "../run/run-secrets.ts";
import { RunnerError } from "../runner-error.ts";

export interface VerifyRunOptions {
  /** The run's journal, read (`inspectJournal`). */
  readonly events: readonly RunEvent[];
  /** The commit to verify at; default the one the last passing attempt recorded. */
  readonly at?: string;
  /** The caller's environment overrides (secrets the validators declare, identity). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
  /**
   * The gh that marks a stale or failed verification as the `climpt/verified` status (a name on
   * PATH or a path; default `gh`); `false`: mark nothing.
   */
  readonly ghCommand?: string | false;
}

/** A `climpt/verified` status verify set (or tried to) on a commit. */
export interface MarkedStatus {
  readonly sha: string;
  readonly state: "failure";
  readonly description: string;
  /** Why it could not be set; absent when it was. */
  readonly error?: string;
}

/** One validator, then and now. */
export interface VerifiedValidator {
  readonly validator: string;
  readonly command: string;
  readonly recorded: { readonly passed: boolean; readonly exitCode: number | null };
  readonly now: {
    readonly passed: boolean;
    readonly exitCode: number | null;
    readonly timedOut: boolean;
    readonly durationMs: number;
    /** The command as it renders now, when the agent's definition changed it. */
    readonly command?: string;
    /** The last lines of its output (scrubbed), for a result that does not hold. */
    readonly outputTail: string;
  };
  /** It ends as recorded (passes, for a validator that passed), running the recorded command. */
  readonly holds: boolean;
}

export interface VerifyReport {
  readonly runId: string;
  /** The commit the validators ran on now. */
  readonly sha: string;
  /** The commit the ledger recorded for the attempt. */
  readonly recordedSha: string;
  readonly attempt: { readonly stepId: string; readonly attempt: number; readonly time: string };
  /** The run's branch (as the ledger recorded it), or null on a detached HEAD. */
  readonly branch: string | null;
  /** Where the branch points now (local, then remote-tracking), or null when it is gone. */
  readonly branchHeads: readonly { readonly ref: string; readonly sha: string }[];
  /** The branch has moved past the verified commit: the verdict no longer speaks for its head. */
  readonly stale: boolean;
  readonly validators: readonly VerifiedValidator[];
  /** Every validator holds and the branch has not moved. */
  readonly holds: boolean;
  /**
   * The statuses marked because it does not hold: failure on each head the branch moved to
   * (stale), or on the verified commit itself. Empty when it holds or marking is off; `markSkipped`
   * says why nothing was marked.
   */
  readonly marked: readonly MarkedStatus[];
  readonly markSkipped?: string;
}

const TAIL_LINES = 20;

function setupError(message: string, hint?: string): RunnerError {
  return new RunnerError(
    problem(RUNNER_CODES.verifySetupFailed, message, hint === undefined ? {} : { hint }),
  );
}

async function git(layout: GitLayout, args: readonly string[], env: Record<string, string>) {
  return runHostGit(layout, args, { env, timeoutMs: 120_000 });
}

/** The attempt `climpt verify` re-checks: the last one that passed on a commit. */
export function attemptToVerify(events: readonly RunEvent[]): LedgerAttempt | undefined {
  return lastPassingAttempt(ledgerOf(events).filter((attempt) => attempt.commit !== null));
}

/** The branch's heads: `refs/heads/<branch>` and every `refs/remotes/*\/<branch>`. */
async function branchHeads(
  layout: GitLayout,
  branch: string,
  env: Record<string, string>,
): Promise<{ ref: string; sha: string }[]> {
  const listed = await git(
    layout,
    [
      "for-each-ref",
      "--format=%(refname) %(objectname)",
      `refs/heads/${branch}`,
      `refs/remotes/*/${branch}`,
    ],
    env,
  );
  if (listed.exitCode !== 0) return [];
  return listed.stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [ref = "", sha = ""] = line.split(" ");
      return { ref, sha };
    });
}

export async function verifyRun(options: VerifyRunOptions): Promise<VerifyReport> {
  const start = options.events.find((event): event is RunStartEvent => event.type === "run_start");
  const attempt = attemptToVerify(options.events);
  if (start === undefined || attempt === undefined || attempt.commit === null) {
    throw new RunnerError(
      problem(
        RUNNER_CODES.verifyNothingRecorded,
        `Run ${start?.runId ?? "(unknown)"} has no passing validation attempt on a commit in its ledger, so there is nothing to re-check.`,
        {
          hint: "Verify a run that completed its validation in a git repository (`climpt runs`); runs from before the ledger have none.",
        },
      ),
    );
  }
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...options.env })) {
    if (value !== undefined) env[name] = value;
  }
  // The repository the run started from: in worktree mode the worktree may be gone, its
  // commits are in the repository.
  const layout = findGitLayout(start.originCwd);
  if (layout === null) {
    throw setupError(`${start.originCwd}, where the run started, is no longer a git repository.`);
  }
  const wanted = options.at ?? attempt.commit.sha;
  const resolved = await git(
    layout,
    ["rev-parse", "--verify", "--quiet", `${wanted}^{commit}`],
    env,
  );
  if (resolved.exitCode !== 0) {
    throw new RunnerError(
      problem(
        RUNNER_CODES.verifyUnknownCommit,
        `--at ${wanted} is not a commit of ${layout.workTree}.`,
        { hint: "Pass a commit (`git log` there), or leave --at out to verify the recorded one." },
      ),
    );
  }
  const sha = resolved.stdout.trim();
  const loaded = await loadAgentDefinition(start.agentDir).catch((error: unknown) => {
    throw setupError(
      `The run's agent at ${start.agentDir} cannot be loaded: ${(error as Error).message}`,
      "The ledger names validators by their definitions in the agent folder; restore it.",
    );
  });
  const found = findValidationStep(loaded.registry, attempt.stepId, loaded.agent.verdict.type);
  const scratch = mkdtempSync(path.join(tmpdir(), "climpt-verify-"));
  const tree = path.join(scratch, "tree");
  const added = await git(layout, ["worktree", "add", "--detach", tree, sha], env);
  if (added.exitCode !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    throw setupError(
      `git worktree add --detach ${tree} ${sha} failed in ${layout.workTree}: ${added.refused ?? added.stderr.trim()}`,
      "`git worktree prune` in the repository removes stale worktree entries.",
    );
  }
  try {
    // The validators run where the run's did: its subfolder of the repository, if it had one
    // (a worktree run worked at its worktree's top).
    const inRepository = start.worktree === null ? path.relative(layout.workTree, start.cwd) : "";
    const cwd = inRepository.startsWith("..") ? tree : path.join(tree, inRepository);
    const scrubber = createScrubber(
      collectSecrets({
        env,
        secretEnvNames: [
          ...(loaded.agent.secretEnvNames ?? []),
          ...commandEnvNames(loaded.registry),
        ],
      }),
    );
    const launch = validatorLauncherFor({
      agent: loaded.agent,
      cwd,
      args: start.args,
      env: options.env,
      ghCommand: undefined,
      githubRepository: undefined,
      scrubber,
      protectedPaths: runProtectedPaths({
        cwd,
        journalPath: null,
        agentDir: loaded.dir,
        agent: loaded.agent,
      }),
    });
    const ran = await runValidation({
      registry: loaded.registry,
      found,
      cwd,
      params: start.args,
      scrubber,
      env: options.env,
      ...(launch === undefined ? {} : { launch }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const results = ran.summary.results;
    const validators = attempt.entries.map((entry): VerifiedValidator => {
      const now = results.find((result) => result.id === entry.validator);
      if (now === undefined) {
        return {
          validator: entry.validator,
          command: entry.command,
          recorded: { passed: entry.passed, exitCode: entry.exitCode },
          now: {
            passed: false,
            exitCode: null,
            timedOut: false,
            durationMs: 0,
            outputTail: `The agent's validation entry for ${attempt.stepId} no longer runs validator "${entry.validator}".`,
          },
          holds: false,
        };
      }
      const command = scrubber.scrub(now.command);
      const output = scrubber.scrub(`${now.stdout}${now.stderr}`).trimEnd().split("\n");
      return {
        validator: entry.validator,
        command: entry.command,
        recorded: { passed: entry.passed, exitCode: entry.exitCode },
        now: {
          passed: now.passed,
          exitCode: now.exitCode,
          timedOut: now.timedOut,
          durationMs: now.durationMs,
          ...(command === entry.command ? {} : { command }),
          outputTail: output.slice(-TAIL_LINES).join("\n"),
        },
        // The recorded result again: a pass passes; a failure `onFailure: skip` let through
        // fails the same way (it never counted), and the command is still the recorded one.
        holds: now.passed === entry.passed && command === entry.command,
      };
    });
    const branch = attempt.commit.branch;
    const heads = branch === null ? [] : await branchHeads(layout, branch, env);
    const stale = heads.some((head) => head.sha !== sha);
    const holds = !stale && validators.length > 0 && validators.every((item) => item.holds);
    const marks = holds
      ? { marked: [] }
      : await markFailure(options, env, layout, sha, stale, heads, start.runId);
    return {
      ...marks,
      runId: start.runId,
      sha,
      recordedSha: attempt.commit.sha,
      attempt: { stepId: attempt.stepId, attempt: attempt.attempt, time: attempt.time },
      branch,
      branchHeads: heads,
      stale,
      validators,
      holds,
    };
  } finally {
    await git(layout, ["worktree", "remove", "--force", tree], env);
    rmSync(scratch, { recursive: true, force: true });
    await git(layout, ["worktree", "prune"], env);
  }
}

/**
 * A verification that does not hold, on GitHub: `climpt/verified` failure on every head the
 * branch moved to (its checks no longer speak for them), or on the verified commit when its
 * validators no longer pass there. Needs the run's GitHub repository (`GH_REPO`, or gh's answer
 * from the repository's remotes); without one nothing is marked and the report says why.
 */
async function markFailure(
  options: VerifyRunOptions,
  env: Record<string, string>,
  layout: GitLayout,
  sha: string,
  stale: boolean,
  heads: readonly { ref: string; sha: string }[],
  runId: string,
): Promise<{ marked: MarkedStatus[]; markSkipped?: string }> {
  if (options.ghCommand === false) return { marked: [], markSkipped: "marking is off" };
  const ghCommand = options.ghCommand ?? "gh";
  const repository = await resolveRunRepository({
    ghCommand,
    env,
    cwd: layout.workTree,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (!repository.known) return { marked: [], markSkipped: repository.reason };
  const base = createExecaCommandRunner({ env });
  const runner: typeof base = (command, args, run) =>
    base(command === "gh" ? ghCommand : command, args, run);
  const targets = stale
    ? [...new Set(heads.filter((head) => head.sha !== sha).map((head) => head.sha))]
    : [sha];
  const marked: MarkedStatus[] = [];
  for (const target of targets) {
    const description = stale
      ? `stale: climpt verified ${sha.slice(0, 12)} (run ${runId}); the branch moved past it`
      : `climpt verify ${runId}: the recorded validators no longer pass here`;
    const error = await setVerifiedStatus({
      commandRunner: runner,
      cwd: layout.workTree,
      repository: repository.name,
      sha: target,
      state: "failure",
      description,
      signal: options.signal,
    });
    marked.push({
      sha: target,
      state: "failure",
      description,
      ...(error === undefined ? {} : { error }),
    });
  }
  return { marked };
}
