/**
 * The gh broker's whole decision on one request from the sandbox, short of running anything:
 * the policy on the argument vector (`decideGh`), then whether a write's target belongs to the
 * run (`authorizeTarget`), then what a closure step records for the boundary hook instead of
 * acting, then the repository the call acts on (the one it names, else the run's:
 * `pinRepository`), then the body a comment reads (a file the broker reads itself, or the shim's
 * stdin).
 */
import type { GithubTarget } from "@climpt/model";
import type { BoundaryRequest, BoundaryRequestLog } from "../boundary-request.ts";
import { type WorkingRoot, workingRoot } from "../confine-path.ts";
import {
  authorizeTarget,
  type GithubAccess,
  NO_GITHUB_ACCESS,
  UNKNOWN_REPOSITORY_HINT,
  unknownRepositoryReason,
} from "../github-access.ts";
import { readBodyFile } from "./gh-body-file.ts";
import { decideGh, type GhStepKind } from "./gh-policy.ts";
import { otherRepositoryNote, pinRepository } from "./gh-repository.ts";

/** One `gh` call as the shim sent it. */
export interface GhRequest {
  readonly argv: readonly string[];
  /** The command's directory inside the sandbox (the same path outside). */
  readonly cwd: string;
  readonly stdin: Buffer;
  /** Whether the shim read its stdin (it does only when an argument looks like `-`). */
  readonly stdinRead: boolean;
}

export interface GhJudgeOptions {
  readonly stepKind: GhStepKind;
  readonly root: WorkingRoot;
  readonly boundary: BoundaryRequestLog;
  /**
   * Default: `NO_GITHUB_ACCESS` — nothing of its own and no repository, so every call that needs
   * a repository (every write among them) is refused.
   */
  readonly github?: GithubAccess;
  /** Folders besides the working directory a `--body-file` may name (the private `$TMPDIR`). */
  readonly readableDirs?: readonly string[];
}

export type GhJudgement =
  /**
   * Run the real gh with `argv`, `env` added to its environment (`GH_REPO`: the run's
   * repository), `input` on its stdin, in the working directory's root; `note` goes first on
   * its stderr (a read of another repository says which).
   */
  | {
      readonly kind: "run";
      readonly argv: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly input: Buffer;
      readonly note?: string;
      /** The repository it acts on, when it acts on one (lower-case `owner/repo`). */
      readonly repository?: string;
    }
  | { readonly kind: "refused"; readonly reason: string }
  /** A request recorded for the boundary hook (the log holds it). */
  | { readonly kind: "recorded"; readonly request: BoundaryRequest };

const refused = (reason: string): GhJudgement => ({ kind: "refused", reason });

/** gh's comma-separated label lists, one label each. */
function splitLabels(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(",")).filter((label) => label !== "");
}

/** A readable folder as a root, or none when it does not exist. */
function readableRoot(dir: string): WorkingRoot[] {
  try {
    return [workingRoot(dir)];
  } catch {
    return [];
  }
}

export async function judgeGhRequest(
  request: GhRequest,
  options: GhJudgeOptions,
): Promise<GhJudgement> {
  const decision = decideGh(request.argv, options.stepKind);
  if (decision.kind === "refuse") return refused(decision.reason);
  const access = options.github ?? NO_GITHUB_ACCESS;
  let run = decision;
  if (decision.kind === "record" || decision.target !== undefined) {
    const { check, target } = await authorizeTarget(access, decision.target as GithubTarget);
    if (!check.ok) return refused(`${check.reason} ${check.hint}`);
    const place = { repository: target.repository };
    if (decision.kind === "record") {
      if (!access.hookActs) {
        return refused(
          "GitHub integration is off for this agent (integrations.github.enabled is false), so the boundary hook would not act on the request; nothing was recorded.",
        );
      }
      const ask = decision.request;
      return {
        kind: "recorded",
        request:
          ask.action === "close"
            ? options.boundary.close(ask.issue, [], [], ask.comment, {
                ...place,
                reason: ask.reason,
              })
            : options.boundary.merge(ask.pullRequest, ask.method, ask.deleteBranch, place),
      };
    }
    // A pull request's labels asked for after its merge was recorded wait for the merge: a
    // `merged` label must not show before the merge happened, nor when it fails.
    if (
      decision.labels !== undefined &&
      target.kind === "pullRequest" &&
      options.boundary.mergeRecorded(target.number, place)
    ) {
      return {
        kind: "recorded",
        request: options.boundary.editPullRequestLabels(
          target.number,
          splitLabels(decision.labels.add),
          splitLabels(decision.labels.remove),
          place,
        ),
      };
    }
    run = decision;
  }
  if (run.kind !== "run") return refused("nothing to run.");
  const repository = await access.repository();
  const pinned = pinRepository(
    run.argv,
    run.repository,
    repository,
    repository.known ? "" : `${unknownRepositoryReason(repository)} ${UNKNOWN_REPOSITORY_HINT}`,
  );
  if (!pinned.ok) return refused(pinned.reason);
  // A read of another repository than the run's says which (a write there is declared).
  const note =
    run.target === undefined && pinned.repository !== undefined
      ? otherRepositoryNote(pinned.repository, repository)
      : undefined;
  let input: Buffer = Buffer.alloc(0);
  if (run.body?.from === "stdin") {
    if (!request.stdinRead) {
      return refused(
        "the body is to come from stdin, but the gh shim did not read it: write `--body-file -` (or `-F -`) as separate words.",
      );
    }
    input = request.stdin;
  } else if (run.body?.from === "file") {
    const roots = [options.root, ...(options.readableDirs ?? []).flatMap(readableRoot)];
    const read = await readBodyFile(run.body.path, request.cwd, roots);
    if (!read.ok) return refused(read.reason);
    input = read.content;
  }
  return {
    kind: "run",
    argv: pinned.argv,
    env: pinned.env,
    input,
    ...(note === undefined ? {} : { note }),
    ...(pinned.repository === undefined ? {} : { repository: pinned.repository }),
  };
}
