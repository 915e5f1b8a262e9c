/**
 * The shape of agent.json's GitHub `targets` declaration (which issues, pull requests and
 * repositories a run's writes may touch) and its default. Apart from the checks in
 * github-targets.ts because the definition model (model.ts) declares it, and those checks read
 * the model: both import this file, neither imports the other.
 */

/** `own`: only the run's own issue (or pull request); `any`: every one in an allowed repository. */
export type GithubTargetRule = "own" | "any";

export const GITHUB_TARGET_RULES: readonly GithubTargetRule[] = ["own", "any"];

/** agent.json `targets`, normalized. */
export interface GithubTargets {
  readonly issues: GithubTargetRule;
  readonly pullRequests: GithubTargetRule;
  /**
   * Repositories besides the run's own that writes may name (`-R OWNER/REPO`), lower case. In
   * them only `any` rules apply: the run's own issue and pull request are those of its own
   * repository.
   */
  readonly repositories: readonly string[];
}

export const DEFAULT_GITHUB_TARGETS: GithubTargets = {
  issues: "own",
  pullRequests: "own",
  repositories: [],
};
