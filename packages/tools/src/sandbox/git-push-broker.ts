import { lstatSync } from "node:fs";
import path from "node:path";
import type { SecretScrubber } from "@climpt/model";
import { confinePath, type WorkingRoot } from "../confine-path.ts";
import { type BrokerAnswer, openBrokerChannel, textAnswer } from "./broker-channel.ts";
import { decideGitPushShape, type PlannedPush, planGitPush } from "./git-push-policy.ts";
import {
  type GitPushSetting,
  type HostGitRun,
  headBranch,
  isGitPushTarget,
  runHostGit,
} from "./git-push-target.ts";

const MAX_REQUEST_BYTES = 256 * 1024;
/** Pushes one sandboxed command may ask for. */
const MAX_REQUESTS = 50;
/** One push, network included. */
const PUSH_TIMEOUT_MS = 5 * 60_000;
const READ_TIMEOUT_MS = 30_000;

export interface GitPushBrokerOptions {
  /** The broker directory: made by the caller, bound writable into the sandbox. */
  readonly dir: string;
  readonly root: WorkingRoot;
  readonly setting: GitPushSetting;
  /** The host git's environment: the caller's, credentials included, model credentials not. */
  readonly env: Readonly<Record<string, string>>;
  /** Applied to everything answered (git prints the remote's URL and the remote's messages). */
  readonly scrubber: SecretScrubber;
}

/** One push request the broker answered, for the Bash tool's result and for tests. */
export interface GitPushRecord {
  readonly argv: readonly string[];
  readonly outcome: "pushed" | "refused" | "failed";
  readonly exitCode: number;
}

export interface GitPushBroker {
  readonly records: readonly GitPushRecord[];
  close(): Promise<void>;
}

interface PushRequest {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: readonly string[];
}

function readPushRequest(raw: Readonly<Record<string, unknown>>): PushRequest | undefined {
  const { argv, cwd, env } = raw;
  const strings = (value: unknown): value is string[] =>
    Array.isArray(value) && value.every((entry) => typeof entry === "string");
  if (!strings(argv) || typeof cwd !== "string" || !strings(env)) return undefined;
  return { argv, cwd, env };
}

const refused = (reason: string): { answer: BrokerAnswer; outcome: GitPushRecord["outcome"] } => ({
  answer: textAnswer("", `git push: refused by climpt's push broker: ${reason}\n`, 1),
  outcome: "refused",
});

/** A URL's user information (`https://user:token@host`), which git may print. */
function withoutUrlCredentials(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, "$1[REDACTED]@");
}

/**
 * Whether `dir` (inside the working directory) lies in another git repository than the run's: a
 * `.git` between it and the working directory. The host never asks git which repository a
 * directory belongs to (the sandbox wrote it); it pushes the run's own, so it refuses a push
 * made from inside another instead of pushing something the command did not mean.
 */
function nestedRepository(root: string, dir: string): string | undefined {
  for (let current = dir; current !== root && current.startsWith(root); ) {
    try {
      lstatSync(path.join(current, ".git"));
      return current;
    } catch {
      // no .git here
    }
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return undefined;
}

/**
 * Starts the push broker of one sandboxed command. Each request is read as git would read it
 * (`decideGitPushShape`), checked against what the run may push (`planGitPush`, with the
 * repository state read by the host), and performed by the host's git with the host's
 * credentials, never forced, never with hooks, pushes one at a time. The sandbox sees the
 * output, scrubbed.
 */
export async function startGitPushBroker(options: GitPushBrokerOptions): Promise<GitPushBroker> {
  const records: GitPushRecord[] = [];
  let queue: Promise<unknown> = Promise.resolve();
  const channel = await openBrokerChannel({
    dir: options.dir,
    maxRequestBytes: MAX_REQUEST_BYTES,
    maxRequests: MAX_REQUESTS,
    async serve(raw, overLimit, signal) {
      const request = raw === undefined ? undefined : readPushRequest(raw);
      let result: { answer: BrokerAnswer; outcome: GitPushRecord["outcome"] };
      if (request === undefined) {
        result = {
          answer: textAnswer("", "git push: unreadable request.\n", 128),
          outcome: "failed",
        };
      } else if (overLimit) {
        result = refused(`more than ${MAX_REQUESTS} pushes in one command.`);
      } else {
        // One push at a time: two pushes (and their upstream settings) never interleave.
        const run = queue.then(() => handle(request, options, signal));
        queue = run.catch(() => undefined);
        result = await run;
      }
      records.push({
        argv: request?.argv ?? [],
        outcome: result.outcome,
        exitCode: result.answer.exitCode,
      });
      return result.answer;
    },
  });
  return { records, close: () => channel.close() };
}

async function handle(
  request: PushRequest,
  options: GitPushBrokerOptions,
  signal: AbortSignal,
): Promise<{ answer: BrokerAnswer; outcome: GitPushRecord["outcome"] }> {
  const setting = options.setting;
  if (!isGitPushTarget(setting)) return refused(setting.refused);
  if (request.env.length > 0) {
    return refused(
      `${request.env.join(", ")} ${request.env.length === 1 ? "is" : "are"} set: the broker pushes only the run's own repository, as it is; unset ${request.env.length === 1 ? "it" : "them"} and push again.`,
    );
  }
  const where = confinePath(options.root, request.cwd);
  if (!where.ok || !where.exists) {
    return refused("the push was made from outside the working directory.");
  }
  const nested = nestedRepository(options.root.real, where.real);
  if (nested !== undefined) {
    return refused(
      `${path.relative(options.root.real, nested) || "."} is another git repository; the broker pushes only the run's repository.`,
    );
  }
  const shape = decideGitPushShape(request.argv);
  if (shape.kind === "refuse") return refused(shape.reason);
  // Whatever must happen before the host reads what the sandbox wrote (objects imported).
  await setting.beforePush?.();
  const git = (args: readonly string[], timeoutMs = READ_TIMEOUT_MS): Promise<HostGitRun> =>
    runHostGit(args, {
      repository: setting,
      env: options.env,
      timeoutMs,
      signal,
    });
  const currentBranch = headBranch(await git(["symbolic-ref", "--quiet", "HEAD"]));
  const remotes = (await git(["remote"])).stdout.split("\n").filter((name) => name !== "");
  const plan = planGitPush(
    shape.shape,
    {
      ...(setting.runBranch === undefined ? {} : { runBranch: setting.runBranch }),
      branches: setting.branches,
      protectedBranches: setting.protectedBranches,
    },
    {
      ...(currentBranch === undefined ? {} : { currentBranch }),
      remotes,
      defaultRemote: await defaultRemote(git, currentBranch),
    },
  );
  if (plan.kind === "refuse") return refused(plan.reason);
  const pushed = await push(plan.plan, git, options.scrubber);
  await setting.afterPush?.();
  return pushed;
}

/** The remote a push without one goes to, as git chooses it. */
async function defaultRemote(
  git: (args: readonly string[]) => Promise<HostGitRun>,
  branch: string | undefined,
): Promise<string> {
  const keys = [
    ...(branch === undefined ? [] : [`branch.${branch}.pushRemote`]),
    "remote.pushDefault",
    ...(branch === undefined ? [] : [`branch.${branch}.remote`]),
  ];
  for (const key of keys) {
    const value = await git(["config", "--get", key]);
    if (value.exitCode === 0 && value.stdout.trim() !== "") return value.stdout.trim();
  }
  return "origin";
}

async function push(
  plan: PlannedPush,
  git: (args: readonly string[], timeoutMs?: number) => Promise<HostGitRun>,
  scrubber: SecretScrubber,
): Promise<{ answer: BrokerAnswer; outcome: GitPushRecord["outcome"] }> {
  const args = [
    "push",
    "--no-verify",
    "--no-follow-tags",
    "--recurse-submodules=no",
    ...(plan.quiet ? ["--quiet"] : []),
    ...(plan.verbose ? ["--verbose"] : []),
    ...(plan.dryRun ? ["--dry-run"] : []),
    "--",
    plan.remote,
    ...plan.updates.map((update) => `${update.src}:refs/heads/${update.dst}`),
  ];
  const run = await git(args, PUSH_TIMEOUT_MS);
  let stderr = run.stderr;
  if (run.failure !== undefined) stderr += `${stderr === "" ? "" : "\n"}git push: ${run.failure}`;
  if (run.exitCode === 0) {
    for (const { branch, remote } of plan.upstreams) {
      const set =
        (await git(["config", `branch.${branch}.remote`, remote])).exitCode === 0 &&
        (await git(["config", `branch.${branch}.merge`, `refs/heads/${branch}`])).exitCode === 0;
      if (!plan.quiet || !set) {
        stderr += set
          ? `branch '${branch}' set up to track '${remote}/${branch}'.\n`
          : `git push: the upstream of '${branch}' could not be set.\n`;
      }
    }
    for (const branch of plan.upstreamsSkipped) {
      stderr += `note: no upstream set for '${branch}': climpt sets one only for the run's branch pushed to its own name.\n`;
    }
  }
  const clean = (text: string): string => withoutUrlCredentials(scrubber.scrub(text));
  return {
    answer: textAnswer(clean(run.stdout), clean(stderr), run.exitCode ?? 128),
    outcome: run.exitCode === 0 ? "pushed" : "failed",
  };
}
