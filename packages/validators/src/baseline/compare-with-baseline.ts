import { realpath } from "node:fs/promises";
import path from "node:path";
import { findGitLayout, type GitLayout } from "@climpt/host-git";
import { DEFAULT_BASELINE_MODE, type ValidatorDefinition } from "@climpt/model";
import type { CommandLauncher } from "../command-launcher.ts";
import { type RunValidatorOptions, runValidator, type ValidatorResult } from "../run-validator.ts";
import { type BaselineTarget, resolveBaseCommit } from "./base-commit.ts";
import {
  type BaseOutcome,
  type BaseOutcomeKey,
  readBaseOutcome,
  writeBaseOutcome,
} from "./baseline-cache.ts";
import {
  compareFindings,
  FAILURE_EXTRACTORS,
  type FailureFinding,
  failureFindings,
} from "./failure-findings.ts";
import { addScratchWorktree } from "./scratch-worktree.ts";
import type { ValidatorBaseline } from "./validator-baseline.ts";

/** How a run compares failures with its base; built by the runner, used for every validator. */
export interface BaselineSetup {
  /** What the work is compared with, or why nothing can be (no base branch, no commit). */
  readonly target: BaselineTarget | { readonly unavailable: string };
  /**
   * Where the base's outcome is kept per (base commit, command), so the next attempt does not
   * run the command there again. Nothing is kept without it. A folder only climpt writes.
   */
  readonly cacheDir?: string;
  /**
   * Where the command runs in the base's checkout: a launcher made for that folder (the runner's
   * OS sandbox), or `"host"` for `sh -c` on the host. Never the run's own launcher, which is
   * bound to the run's working directory.
   */
  readonly launcherFor: ((cwd: string) => CommandLauncher) | "host";
  /** The environment host git runs with (default the process's). */
  readonly gitEnv?: Readonly<Record<string, string | undefined>>;
}

const OFF: ValidatorBaseline = { status: "off", preExisting: [], introduced: [] };

function unavailable(reason: string, baseSha?: string): ValidatorBaseline {
  return {
    status: "unavailable",
    reason,
    ...(baseSha === undefined ? {} : { baseSha }),
    preExisting: [],
    introduced: [],
  };
}

/**
 * A failed validator, compared with the merge base (docs/design.md#the-completion-chain). With
 * `baseline: "compare"`, the same command (as rendered for the run) runs in a detached scratch
 * worktree at the merge base, with a launcher for that folder, and the failures both outputs
 * name are matched. Failures the base has too are pre-existing; when every failure is, the
 * result counts as passed (`passed: true`, the exit code as it was, `baseline` says why).
 * Whenever that cannot be decided the result stays failed and `baseline` says why (strict).
 * A passed result is returned as it is.
 */
export async function compareWithBaseline(
  def: ValidatorDefinition,
  head: ValidatorResult,
  options: RunValidatorOptions,
  setup: BaselineSetup,
): Promise<ValidatorResult> {
  if (head.passed) return head;
  const baseline = await baselineOf(def, head, options, setup);
  const passed = baseline.status === "compared" && baseline.introduced.length === 0;
  return { ...head, passed, baseline };
}

async function baselineOf(
  def: ValidatorDefinition,
  head: ValidatorResult,
  options: RunValidatorOptions,
  setup: BaselineSetup,
): Promise<ValidatorBaseline> {
  if ((def.baseline ?? DEFAULT_BASELINE_MODE) === "off") return OFF;
  if (head.error !== undefined) {
    return unavailable(
      `the command did not finish here (${head.error.code}), so its failures are not known`,
    );
  }
  if (head.truncated) {
    return unavailable("its output passed the capture cap, so it may name only some failures");
  }
  const found = failureFindings(def.extractParams, head.extracted);
  if (!found.ok) return unavailable(found.reason);
  if (found.findings.length === 0) {
    return unavailable("it failed, but its output names no failing test or error to compare");
  }
  if ("unavailable" in setup.target) return unavailable(setup.target.unavailable);
  const target = setup.target;

  let repo: GitLayout | null;
  // Where the command ran, relative to its working tree's top: the base runs it there too.
  let subfolder = "";
  try {
    repo = findGitLayout(options.cwd);
    if (repo !== null) {
      subfolder = path.relative(await realpath(repo.workTree), await realpath(options.cwd));
    }
  } catch (error) {
    return unavailable(
      `the working directory's repository cannot be read: ${(error as Error).message}`,
    );
  }
  if (repo === null) return unavailable("the working directory is not in a git repository");
  const gitOptions = {
    ...(setup.gitEnv === undefined ? {} : { env: setup.gitEnv }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  const base = await resolveBaseCommit(repo, target, gitOptions);
  if (!base.ok) return unavailable(base.reason);

  const key: BaseOutcomeKey = {
    baseSha: base.sha,
    command: head.command,
    successWhen: def.successWhen,
    extractors: Object.values(def.extractParams).filter((name) =>
      (FAILURE_EXTRACTORS as readonly string[]).includes(name),
    ),
  };
  let outcome =
    setup.cacheDir === undefined ? undefined : await readBaseOutcome(setup.cacheDir, key);
  if (outcome === undefined) {
    outcome = await runOnBase(def, options, setup, repo, subfolder, base.sha, gitOptions);
    // An abort says nothing about the base: not remembered.
    if (setup.cacheDir !== undefined && !options.signal?.aborted) {
      await writeBaseOutcome(setup.cacheDir, key, outcome).catch(() => undefined);
    }
  }
  if (outcome.kind === "unavailable") return unavailable(outcome.reason, base.sha);
  return judge(head, found.findings, outcome, target.name, base.sha);
}

function judge(
  head: ValidatorResult,
  findings: readonly FailureFinding[],
  outcome: Extract<BaseOutcome, { kind: "ran" }>,
  baseName: string,
  baseSha: string,
): ValidatorBaseline {
  const on = `${baseName} (${baseSha.slice(0, 12)})`;
  if (!outcome.passed) {
    if (outcome.findings.length === 0) {
      return unavailable(
        `it fails on ${on} too, but there its output names no failure to compare`,
        baseSha,
      );
    }
    // Another exit code is another kind of failure (a crash, a compile error before the tests).
    if (outcome.exitCode !== head.exitCode) {
      return unavailable(
        `it fails differently on ${on} (exit ${outcome.exitCode ?? "none"} there, ${head.exitCode ?? "none"} here)`,
        baseSha,
      );
    }
  }
  const { preExisting, introduced } = compareFindings(
    findings,
    outcome.passed ? [] : outcome.findings,
  );
  const reason =
    introduced.length === 0
      ? `every failure (${preExisting.length}) already fails on ${on}: counted as passed`
      : outcome.passed
        ? `it passes on ${on}: every failure (${introduced.length}) is introduced`
        : `${introduced.length} introduced, ${preExisting.length} already failing on ${on}`;
  return { status: "compared", reason, baseSha, preExisting, introduced };
}

async function runOnBase(
  def: ValidatorDefinition,
  options: RunValidatorOptions,
  setup: BaselineSetup,
  repo: GitLayout,
  subfolder: string,
  sha: string,
  gitOptions: {
    readonly env?: Readonly<Record<string, string | undefined>>;
    readonly signal?: AbortSignal;
  },
): Promise<BaseOutcome> {
  if (subfolder.startsWith("..") || path.isAbsolute(subfolder)) {
    return {
      kind: "unavailable",
      reason: "the working directory is outside its repository's working tree",
    };
  }
  const added = await addScratchWorktree(repo, sha, gitOptions);
  if (!added.ok) return { kind: "unavailable", reason: added.reason };
  try {
    const cwd = path.join(added.worktree.path, subfolder);
    const launch = setup.launcherFor === "host" ? undefined : setup.launcherFor(cwd);
    const { launch: _runLaunch, ...rest } = options;
    const result = await runValidator(def, {
      ...rest,
      cwd,
      ...(launch === undefined ? {} : { launch }),
    });
    if (result.error !== undefined) {
      return {
        kind: "unavailable",
        reason: `the command did not run on the base: ${result.error.code} ${result.error.message}`,
      };
    }
    if (result.truncated) {
      return { kind: "unavailable", reason: "its output on the base passed the capture cap" };
    }
    if (result.passed) {
      return { kind: "ran", passed: true, exitCode: result.exitCode, findings: [] };
    }
    const found = failureFindings(def.extractParams, result.extracted);
    if (!found.ok) return { kind: "unavailable", reason: `on the base, ${found.reason}` };
    return { kind: "ran", passed: false, exitCode: result.exitCode, findings: found.findings };
  } finally {
    await added.worktree.remove();
  }
}
