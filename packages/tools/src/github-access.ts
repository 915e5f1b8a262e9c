import {
  type AgentDefinition,
  checkGithubTarget,
  type GithubRunScope,
  type GithubTarget,
  type GithubTargetCheck,
  githubRunScope,
  type JsonValue,
  normalizeRepository,
} from "@climpt/model";
import { loadExeca } from "./lazy-modules.ts";

const RESOLVE_TIMEOUT_MS = 30_000;

/**
 * What a step's GitHub writes may touch (`checkGithubTarget`), and whether the boundary hook will
 * act on what a closure step records. Shared by the gh broker and the GitHub tools of one step.
 */
export interface GithubAccess {
  readonly scope: GithubRunScope;
  /** agent.json `integrations.github.enabled`: the hook acts on recorded requests only when on. */
  readonly hookActs: boolean;
  /**
   * The repository gh picks in the working directory (lower-case `owner/repo`), asked of the
   * real gh once, when a write first names a repository the agent does not declare; undefined
   * when gh cannot tell.
   */
  ownRepository(): Promise<string | undefined>;
}

export interface GithubAccessOptions {
  readonly agent: Pick<AgentDefinition, "github" | "verdict">;
  /** The run's arguments (`issue`, `prNumber`, …). */
  readonly params?: Readonly<Record<string, JsonValue | undefined>>;
  readonly ghCommand: string;
  /** The real gh's environment. */
  readonly env: () => Readonly<Record<string, string>>;
  /** Where gh resolves the repository: the working directory. */
  readonly cwd: string;
}

/** The access of a step with no run around it: no issue or pull request of its own. */
export const NO_GITHUB_ACCESS: GithubAccess = {
  scope: githubRunScope({ github: {} }, {}),
  hookActs: false,
  ownRepository: async () => undefined,
};

export function createGithubAccess(options: GithubAccessOptions): GithubAccess {
  let resolved: Promise<string | undefined> | undefined;
  return {
    scope: githubRunScope(options.agent, options.params ?? {}),
    hookActs: options.agent.github.enabled,
    ownRepository() {
      resolved ??= (async () => {
        const { execa } = await loadExeca();
        const result = await execa(
          options.ghCommand,
          ["repo", "view", "--json", "nameWithOwner", "--jq", ".nameWithOwner"],
          {
            cwd: options.cwd,
            env: options.env(),
            extendEnv: false,
            reject: false,
            timeout: RESOLVE_TIMEOUT_MS,
          },
        );
        return result.exitCode === 0
          ? normalizeRepository(String(result.stdout).trim())
          : undefined;
      })();
      return resolved;
    },
  };
}

/**
 * Whether a write may act on `target`, asking gh for the run's repository only when the target
 * names one the agent does not declare. A target in the run's own repository comes back without
 * its repository (the same place gh picks by itself); one in a declared repository keeps it.
 */
export async function authorizeTarget(
  access: GithubAccess,
  target: GithubTarget,
): Promise<{ readonly check: GithubTargetCheck; readonly target: GithubTarget }> {
  const { repository } = target;
  const declared =
    repository !== undefined && access.scope.targets.repositories.includes(repository);
  const own = repository === undefined || declared ? undefined : await access.ownRepository();
  const check = checkGithubTarget(access.scope, target, own);
  if (!check.ok || repository === undefined || declared || repository !== own) {
    return { check, target };
  }
  return { check, target: { kind: target.kind, number: target.number, write: target.write } };
}
