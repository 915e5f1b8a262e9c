import {
  type AgentDefinition,
  checkGithubTarget,
  type GithubRunScope,
  type GithubTarget,
  type GithubTargetCheck,
  githubRunScope,
  type IssueParameterSource,
  type JsonValue,
} from "@climpt/model";
import { type RunRepository, resolveRunRepository } from "./run-repository.ts";

/**
 * What a step's GitHub writes may touch (`checkGithubTarget`), in which repository its gh calls
 * act, and whether the boundary hook will act on what a closure step records. Shared by the gh
 * broker and the GitHub tools of one step.
 */
export interface GithubAccess {
  readonly scope: GithubRunScope;
  /** agent.json `integrations.github.enabled`: the hook acts on recorded requests only when on. */
  readonly hookActs: boolean;
  /**
   * The run's repository: every gh call that names none acts there. The runner fixes it before
   * the run's first step (`resolveRunRepository`); a toolbox without one asks gh at the working
   * directory's root once, on first use.
   */
  repository(): Promise<RunRepository>;
}

export interface GithubAccessOptions {
  /** The agent: its GitHub targets, poll:state's issue, which parameter is the run's issue. */
  readonly agent: Pick<AgentDefinition, "github" | "verdict"> & IssueParameterSource;
  /** The run's arguments (its issue parameter's, `prNumber`, …). */
  readonly params?: Readonly<Record<string, JsonValue | undefined>>;
  /** The run's repository, fixed before the run's first step. */
  readonly repository?: RunRepository;
  readonly ghCommand: string;
  /** The real gh's environment. */
  readonly env: () => Readonly<Record<string, string>>;
  /** The working directory's root: where gh is asked for the repository when none is given. */
  readonly cwd: string;
}

const NO_RUN: RunRepository = {
  known: false,
  reason: "no run gave this command a repository (climpt's runner fixes one per run).",
};

/** The access of a step with no run around it: nothing of its own, no repository. */
export const NO_GITHUB_ACCESS: GithubAccess = {
  scope: githubRunScope({ github: {} }, {}),
  hookActs: false,
  repository: async () => NO_RUN,
};

export function createGithubAccess(options: GithubAccessOptions): GithubAccess {
  let resolved: Promise<RunRepository> | undefined =
    options.repository === undefined ? undefined : Promise.resolve(options.repository);
  return {
    scope: githubRunScope(options.agent, options.params ?? {}),
    hookActs: options.agent.github.enabled,
    repository() {
      resolved ??= resolveRunRepository({
        ghCommand: options.ghCommand,
        env: options.env(),
        cwd: options.cwd,
      });
      return resolved;
    },
  };
}

/** Why a call that names no repository cannot run: the run's is unknown. */
export function unknownRepositoryReason(repository: RunRepository & { known: false }): string {
  return `the run's repository is unknown (${repository.reason}), so a gh call that names no repository has nowhere to act.`;
}

export const UNKNOWN_REPOSITORY_HINT =
  "Name the repository with -R OWNER/REPO (a write: one agent.json declares), or start the run where gh can tell it (a github.com remote, or GH_REPO).";

/**
 * Whether a write may act on `target`, in the run's repository unless it names another. A target
 * in the run's own repository comes back without its repository (the run's, which every gh call
 * of the run is given); one in a declared repository keeps it.
 */
export async function authorizeTarget(
  access: GithubAccess,
  target: GithubTarget,
): Promise<{ readonly check: GithubTargetCheck; readonly target: GithubTarget }> {
  const run = await access.repository();
  const { repository } = target;
  if (repository === undefined && !run.known) {
    return {
      check: { ok: false, reason: unknownRepositoryReason(run), hint: UNKNOWN_REPOSITORY_HINT },
      target,
    };
  }
  const own = run.known ? run.name : undefined;
  const check = checkGithubTarget(access.scope, target, own);
  if (!check.ok || repository === undefined || repository !== own) return { check, target };
  return { check, target: { kind: target.kind, number: target.number, write: target.write } };
}
