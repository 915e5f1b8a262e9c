/**
 * The run's repository: the one GitHub repository a run's gh calls act on unless they name
 * another. The host fixes it once per run, before the model acts, from the run's working-directory
 * root — never from the folder a command happens to run in, where a repository the model made
 * (`git init tmp/x && git remote add origin …`) would decide which repository "issue #1" is.
 */
import { hostGitSettingsEnvironment } from "@climpt/host-git";
import { normalizeRepository } from "@climpt/model";
import { loadExeca } from "./lazy-modules.ts";

/** The run's repository as lower-case `owner/repo`, or why it could not be told. */
export type RunRepository =
  | { readonly known: true; readonly name: string }
  | { readonly known: false; readonly reason: string };

export const RESOLVE_REPOSITORY_TIMEOUT_MS = 30_000;

export interface ResolveRunRepositoryOptions {
  /** The real gh (a name on the PATH of `env`, or a path). */
  readonly ghCommand: string;
  /** The environment gh runs with (the caller's, credentials included). */
  readonly env: Readonly<Record<string, string>>;
  /** The run's working-directory root. */
  readonly cwd: string;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * The environment of a gh the host runs: the caller's, without `GIT_*` variables that redirect
 * git, with host git's fixed settings (no fsmonitor, no hooks, …) as `GIT_CONFIG_COUNT` entries,
 * which git reads like `-c` options over every file: gh runs git itself (`git remote -v`, the
 * current branch) in a repository whose files the model may have touched.
 */
export function hostGhEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  return hostGitSettingsEnvironment(env);
}

/** The first line of a gh message, short enough to put in a refusal. */
function firstLine(text: string): string {
  const line =
    text
      .split("\n")
      .map((part) => part.trim())
      .find((part) => part !== "") ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * The run's repository: the caller's `GH_REPO` when it names one (gh acts there whatever the
 * folder), else what `gh repo view --json nameWithOwner` answers in `cwd` — gh's own choice among
 * the folder's git remotes, asked of the real gh with the host's git settings. Anything gh cannot
 * tell (no remote, not logged in, another host than github.com) is `{ known: false, reason }`.
 */
export async function resolveRunRepository(
  options: ResolveRunRepositoryOptions,
): Promise<RunRepository> {
  const fromEnv = options.env.GH_REPO?.trim();
  if (fromEnv !== undefined && fromEnv !== "") {
    const name = normalizeRepository(fromEnv);
    return name === undefined
      ? {
          known: false,
          reason: `GH_REPO is "${fromEnv}", which is not OWNER/REPO on github.com.`,
        }
      : { known: true, name };
  }
  const { execa } = await loadExeca();
  const result = await execa(options.ghCommand, ["repo", "view", "--json", "nameWithOwner"], {
    cwd: options.cwd,
    env: hostGhEnv(options.env),
    extendEnv: false,
    reject: false,
    stdin: "ignore",
    timeout: options.timeoutMs ?? RESOLVE_REPOSITORY_TIMEOUT_MS,
    maxBuffer: 1024 * 1024,
    ...(options.signal === undefined ? {} : { cancelSignal: options.signal }),
  });
  const asked = "`gh repo view` in the working directory";
  if (result.exitCode !== 0) {
    const said = firstLine(String(result.stderr ?? "")) || firstLine(result.shortMessage ?? "");
    return { known: false, reason: `${asked} failed: ${said || "no answer"}` };
  }
  let named: unknown;
  try {
    named = (JSON.parse(String(result.stdout)) as { nameWithOwner?: unknown }).nameWithOwner;
  } catch {
    named = undefined;
  }
  const name = typeof named === "string" ? normalizeRepository(named) : undefined;
  return name === undefined
    ? { known: false, reason: `${asked} named no OWNER/REPO on github.com.` }
    : { known: true, name };
}
