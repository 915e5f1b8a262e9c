import { spawnSync } from "node:child_process";
import { type GhParsedArgs, GhUsageError, parseGhArgs } from "./gh-args.ts";
import {
  GhCommandError,
  type GhContext,
  type GhOutput,
  jsonOutput,
  requestedFields,
} from "./gh-context.ts";
import type { FakeGhCheckRun, FakeGhPullRequest } from "./state.ts";

/**
 * The commit a pull request's head branch points at on "GitHub": the repository's `git` (a bare
 * repository a test pushes to) or, without one, the `origin` remote of the caller's folder.
 */
export function headCommitOf(context: GhContext, pr: FakeGhPullRequest): string {
  const ref = `refs/heads/${pr.headRefName}`;
  const listed =
    context.repo.git === undefined
      ? spawnSync("git", ["ls-remote", "origin", ref], { cwd: context.cwd, encoding: "utf8" })
      : spawnSync("git", ["ls-remote", context.repo.git, ref], { encoding: "utf8" });
  const sha = listed.status === 0 ? /^([0-9a-f]{40})\s/m.exec(listed.stdout)?.[1] : undefined;
  if (sha === undefined) {
    throw new GhCommandError(
      `fake gh: the head branch "${pr.headRefName}" of pull request #${pr.number} is not on the remote (${context.repo.git ?? "origin"}).`,
    );
  }
  return sha;
}

/**
 * The check runs of the pull request's current head, made from the branch's script the first
 * time the head is seen (its ordinal among the branch's heads picks the script's entry). Each
 * call is one poll: it moves every run of that head one step (queued → in progress → completed).
 */
function checkRunsOfHead(context: GhContext, pr: FakeGhPullRequest): FakeGhCheckRun[] {
  const repo = context.repo;
  const sha = headCommitOf(context, pr);
  repo.heads ??= {};
  repo.checkRuns ??= [];
  repo.heads[pr.headRefName] ??= [];
  const heads = repo.heads[pr.headRefName] as string[];
  let runs = repo.checkRuns.filter((run) => run.sha === sha && run.branch === pr.headRefName);
  if (!heads.includes(sha)) {
    heads.push(sha);
    const script = repo.checkScripts?.find((candidate) => candidate.branch === pr.headRefName);
    const plans =
      script === undefined || script.heads.length === 0
        ? []
        : (script.heads[Math.min(heads.length, script.heads.length) - 1] ?? []);
    let nextId = repo.checkRuns.reduce((max, run) => Math.max(max, run.id), 1000);
    runs = plans.map((plan) => {
      nextId += 1;
      const run: FakeGhCheckRun = {
        id: nextId,
        runId: nextId + 5000,
        sha,
        branch: pr.headRefName,
        name: plan.name,
        workflow: plan.workflow ?? "CI",
        status: "queued",
        conclusion: null,
        plan: plan.conclusion,
        polls: 0,
        pollsUntilDone: plan.polls ?? 2,
        log: plan.log ?? "",
        startedAt: null,
        completedAt: null,
      };
      if (run.plan !== "pending" && run.pollsUntilDone <= 0) {
        run.status = "completed";
        run.conclusion = run.plan;
        run.startedAt = context.now;
        run.completedAt = context.now;
      }
      repo.checkRuns?.push(run);
      return run;
    });
    return runs;
  }
  for (const run of runs) {
    if (run.status === "completed") continue;
    run.polls += 1;
    if (run.status === "queued") {
      run.status = "in_progress";
      run.startedAt = context.now;
    }
    if (run.plan !== "pending" && run.polls >= run.pollsUntilDone) {
      run.status = "completed";
      run.conclusion = run.plan;
      run.completedAt = context.now;
    }
  }
  return runs;
}

type Bucket = "pass" | "fail" | "pending" | "skipping" | "cancel";

function bucketOf(run: FakeGhCheckRun): Bucket {
  if (run.status !== "completed") return "pending";
  if (run.conclusion === "success") return "pass";
  if (run.conclusion === "skipped") return "skipping";
  if (run.conclusion === "cancelled") return "cancel";
  return "fail";
}

function checkJson(context: GhContext, run: FakeGhCheckRun): Record<string, unknown> {
  return {
    bucket: bucketOf(run),
    completedAt: run.completedAt ?? "0001-01-01T00:00:00Z",
    description: "",
    event: "pull_request",
    link: `https://github.com/${context.repoName}/actions/runs/${run.runId}/job/${run.id}`,
    name: run.name,
    startedAt: run.startedAt ?? "0001-01-01T00:00:00Z",
    state: (run.status === "completed" ? (run.conclusion ?? "") : run.status).toUpperCase(),
    workflow: run.workflow,
  };
}

const CHECK_FIELDS = [
  "bucket",
  "completedAt",
  "description",
  "event",
  "link",
  "name",
  "startedAt",
  "state",
  "workflow",
];

/**
 * `gh pr checks [<number> | <url> | <branch>] [--json fields]`: the checks of the head commit,
 * with gh's exit codes — 1 when one failed (or was cancelled), else 8 while one is pending, 0
 * when all passed; "no checks reported" (exit 1) before any.
 */
export function prChecks(
  context: GhContext,
  argv: readonly string[],
  resolve: (selector: string | undefined) => FakeGhPullRequest,
): GhOutput {
  const args: GhParsedArgs = parseGhArgs(argv, {
    repo: { kind: "string", short: "R" },
    json: { kind: "string" },
    jq: { kind: "string", short: "q" },
    required: { kind: "bool" },
  });
  const pr = resolve(args.positionals[0]);
  const runs = checkRunsOfHead(context, pr);
  if (runs.length === 0) {
    return {
      exitCode: 1,
      stdout: "",
      stderr: `no checks reported on the '${pr.headRefName}' branch\n`,
    };
  }
  const buckets = runs.map(bucketOf);
  const exitCode = buckets.some((bucket) => bucket === "fail" || bucket === "cancel")
    ? 1
    : buckets.includes("pending")
      ? 8
      : 0;
  const fields = requestedFields(args);
  if (fields !== undefined) {
    for (const field of fields) {
      if (!CHECK_FIELDS.includes(field)) {
        throw new GhCommandError(
          `Unknown JSON field: "${field}"\nAvailable fields:\n${CHECK_FIELDS.map((name) => `  ${name}`).join("\n")}`,
        );
      }
    }
    const rows = runs.map((run) => {
      const all = checkJson(context, run);
      return Object.fromEntries(fields.map((field) => [field, all[field]]));
    });
    return { ...jsonOutput(rows, args), exitCode };
  }
  const text = runs
    .map((run) => {
      const json = checkJson(context, run);
      return `${run.name}\t${json.bucket}\t0\t${json.link}\t\n`;
    })
    .join("");
  return { exitCode, stdout: text, stderr: "" };
}

/**
 * `gh run view <run-id> --log-failed [--job <id>]`: the failed steps' log lines of a completed
 * run, each as `<job>\t<step>\t<time> <line>` like gh prints them; a run still in progress is an
 * error, as in gh.
 */
export function runView(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, {
    repo: { kind: "string", short: "R" },
    "log-failed": { kind: "bool" },
    log: { kind: "bool" },
    job: { kind: "string", short: "j" },
  });
  const id = args.positionals[0];
  if (id === undefined || !/^\d+$/.test(id)) throw new GhUsageError("run ID required");
  if (args.flags.get("log-failed") !== true && args.flags.get("log") !== true) {
    throw new GhUsageError("fake gh: `gh run view` models only --log-failed and --log.");
  }
  const job = args.flags.get("job");
  const runs = (context.repo.checkRuns ?? []).filter(
    (run) => String(run.runId) === id && (typeof job !== "string" || String(run.id) === job),
  );
  if (runs.length === 0) throw new GhCommandError(`could not find any workflow run with ID ${id}`);
  if (runs.some((run) => run.status !== "completed")) {
    throw new GhCommandError(
      `run ${id} is still in progress; logs will be available when it is complete`,
    );
  }
  const failedOnly = args.flags.get("log-failed") === true;
  const lines: string[] = [];
  for (const run of runs) {
    if (failedOnly && run.conclusion !== "failure") continue;
    for (const line of run.log.split("\n")) {
      lines.push(`${run.name}\tRun tests\t${run.completedAt ?? context.now} ${line}`);
    }
  }
  return { exitCode: 0, stdout: lines.length === 0 ? "" : `${lines.join("\n")}\n`, stderr: "" };
}

/** `gh run <subcommand>`: view. */
export const RUN_COMMANDS: Readonly<
  Record<string, (context: GhContext, argv: readonly string[]) => GhOutput>
> = { view: runView };
