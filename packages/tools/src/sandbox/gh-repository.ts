/**
 * Which repository a brokered gh call acts on, and how the broker gives it the run's. Left to
 * itself gh takes the repository from the git remotes of the folder it runs in, and the model
 * chooses that folder (and can make a repository with any remote in it). So every call that
 * names no repository is given the run's (`RunRepository`, fixed by the host before the model
 * acted): in `GH_REPO` (which every command with `-R/--repo` reads when the flag is absent), as
 * the argument of `gh repo view`, or written into a `gh api` endpoint's `{owner}`/`{repo}`. A
 * call that names another repository (`-R`, an issue or pull request URL, `gh repo view O/R`,
 * an `api` path under `repos/O/R/`) acts there; a read of one says so on stderr. Pure.
 */
import { normalizeRepository } from "@climpt/model";
import type { RunRepository } from "../run-repository.ts";
import type { ParsedGh } from "./gh-argv.ts";

export type GhRepositoryUse =
  /** The call names its repository (lower-case `owner/repo`). */
  | { readonly kind: "named"; readonly repository: string }
  /**
   * The call names none and gh would take one from its folder: the broker gives it the run's,
   * in `GH_REPO` (`env`), as `gh repo view`'s argument (`argument`), or in the `gh api`
   * endpoint at `argv[at]` (`endpoint`).
   */
  | { readonly kind: "run"; readonly via: "env" | "argument" | "endpoint"; readonly at?: number }
  /** The call is about no one repository (search, `gh status`, help, other `api` paths). */
  | { readonly kind: "none" };

/** Groups whose commands take `-R/--repo` and otherwise read the folder's remotes. */
const REPOSITORY_GROUPS = new Set(["issue", "pr", "release", "label", "run", "workflow"]);

const ISSUE_OR_PR_URL = /^https:\/\/github\.com\/([^/\s]+)\/([^/\s]+)\/(?:issues|pull)\/\d/i;

/** `{owner}`, `{repo}` and their older `:owner`, `:repo` forms, which gh fills from the folder. */
const PLACEHOLDERS = /\{owner\}|\{repo\}|:owner\b|:repo\b/g;

const REPOS_PATH = /^\/?repos\/([^/?#]+)\/([^/?#]+)/i;

const named = (repository: string | undefined): GhRepositoryUse | undefined =>
  repository === undefined ? undefined : { kind: "named", repository };

/**
 * The repository of a read (or of `--help`): what `-R` or the URL argument names, else the
 * folder's — which the broker replaces with the run's.
 */
export function readRepositoryUse(parsed: ParsedGh): GhRepositoryUse {
  const group = parsed.path[0] ?? "";
  if (parsed.help) return { kind: "none" };
  if (group === "repo") {
    const arg = parsed.args[0];
    return (
      named(arg === undefined ? undefined : normalizeRepository(arg)) ?? {
        kind: "run",
        via: "argument",
      }
    );
  }
  if (!REPOSITORY_GROUPS.has(group)) return { kind: "none" };
  if (group === "issue" || group === "pr") {
    const url = ISSUE_OR_PR_URL.exec(parsed.args[0] ?? "");
    const fromUrl = url === null ? undefined : normalizeRepository(`${url[1]}/${url[2]}`);
    // gh takes a URL's repository over -R.
    if (fromUrl !== undefined) return { kind: "named", repository: fromUrl };
  }
  const flag = parsed.flags.get("repo")?.at(-1);
  return (
    named(flag === undefined ? undefined : normalizeRepository(flag)) ?? {
      kind: "run",
      via: "env",
    }
  );
}

/** The repository of `gh api ENDPOINT`, the endpoint being `argv[at]` of the vector to run. */
export function apiRepositoryUse(endpoint: string, at: number): GhRepositoryUse {
  PLACEHOLDERS.lastIndex = 0;
  if (PLACEHOLDERS.test(endpoint)) return { kind: "run", via: "endpoint", at };
  const path = REPOS_PATH.exec(endpoint);
  return (
    named(path === null ? undefined : normalizeRepository(`${path[1]}/${path[2]}`)) ?? {
      kind: "none",
    }
  );
}

export type PinnedCall =
  | {
      readonly ok: true;
      readonly argv: readonly string[];
      /** Added to the real gh's environment. */
      readonly env: Readonly<Record<string, string>>;
      /** The repository the call acts on, when it acts on one. */
      readonly repository?: string;
    }
  | { readonly ok: false; readonly reason: string };

/**
 * The vector and environment that make gh act where `use` says: a named repository as named;
 * otherwise the run's. `GH_REPO` is the run's for every call when it is known, so no command gh
 * resolves by itself reaches the folder's remotes. Refused when the call needs the run's
 * repository and it is unknown.
 */
export function pinRepository(
  argv: readonly string[],
  use: GhRepositoryUse,
  run: RunRepository,
  unknownReason: string,
): PinnedCall {
  const env: Record<string, string> = run.known ? { GH_REPO: run.name } : {};
  if (use.kind === "none") return { ok: true, argv, env };
  if (use.kind === "named") return { ok: true, argv, env, repository: use.repository };
  if (!run.known) return { ok: false, reason: unknownReason };
  if (use.via === "env") return { ok: true, argv, env, repository: run.name };
  if (use.via === "argument")
    return { ok: true, argv: [...argv, run.name], env, repository: run.name };
  const at = use.at ?? -1;
  const endpoint = argv[at];
  if (endpoint === undefined) return { ok: false, reason: "the gh api endpoint is missing." };
  const [owner, repo] = run.name.split("/") as [string, string];
  const filled = endpoint.replace(PLACEHOLDERS, (word) => (word.includes("owner") ? owner : repo));
  const out = [...argv];
  out[at] = filled;
  const path = REPOS_PATH.exec(filled);
  const repository = path === null ? undefined : normalizeRepository(`${path[1]}/${path[2]}`);
  return { ok: true, argv: out, env, ...(repository === undefined ? {} : { repository }) };
}

/** The line a read of another repository than the run's adds to gh's stderr. */
export function otherRepositoryNote(repository: string, run: RunRepository): string | undefined {
  if (run.known && run.name === repository) return undefined;
  const runs = run.known ? run.name : "unknown";
  return `climpt's GitHub broker: this read was of ${repository}, which is not the run's repository (${runs}).\n`;
}
