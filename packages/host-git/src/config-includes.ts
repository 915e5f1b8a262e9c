import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { type Problem, problem } from "@climpt/model";
import { HOST_GIT_CODES } from "./codes.ts";
import type { GitLayout } from "./git-layout.ts";
import { runHostGit } from "./host-git.ts";

/** One `file:<path>` origin and its entry, from `git config --list --show-origin -z`. */
interface ConfigEntry {
  readonly origin: string;
  readonly key: string;
  readonly value: string | null;
}

function parseListing(text: string): ConfigEntry[] {
  const fields = text.split("\0");
  const entries: ConfigEntry[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const origin = fields[index] as string;
    const entry = fields[index + 1] as string;
    const newline = entry.indexOf("\n");
    entries.push({
      origin,
      key: newline === -1 ? entry : entry.slice(0, newline),
      value: newline === -1 ? null : entry.slice(newline + 1),
    });
  }
  return entries;
}

/** The real path of `file`, or of its nearest existing parent joined with the rest. */
function realish(file: string): string {
  const missing: string[] = [];
  for (let current = path.resolve(file); ; current = path.dirname(current)) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch {
      if (path.dirname(current) === current) return path.resolve(file);
      missing.push(path.basename(current));
    }
  }
}

function inside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** Where an include's `path` value points: `~/` is the home directory, relative is beside its file. */
function includeTarget(value: string, origin: string, cwd: string): string {
  if (value === "~" || value.startsWith("~/")) return path.join(homedir(), value.slice(1));
  const including = path.resolve(cwd, origin.slice("file:".length));
  return path.resolve(path.dirname(including), value);
}

/**
 * The configuration files git reads for `layout` (with includes, conditional ones included) that
 * lie inside one of `dirs`, plus every `include.path` / `includeIf.*.path` that points inside
 * them, active or not: as one `GIT-HOST-003` problem per file. A run's model writes its working
 * tree, so such a file is configuration the model writes: git would run whatever it names
 * (`core.fsmonitor`, `core.sshCommand`, a credential helper) on the host.
 */
export async function configIncludeProblems(
  layout: GitLayout,
  dirs: readonly string[],
  options: { readonly env?: Readonly<Record<string, string | undefined>> } = {},
): Promise<Problem[]> {
  const roots = dirs.map(realish);
  // The repository's own files (.git/config, config.worktree) lie inside a working tree too, but
  // the model never writes them (the sandbox keeps the git directory read-only).
  const gitDirs = [layout.gitDir, layout.commonDir];
  const modelWritten = (file: string): boolean =>
    roots.some((root) => inside(root, file)) && !gitDirs.some((dir) => inside(dir, file));
  const cwd = layout.workTree;
  const found = new Map<string, string>();
  const listing = async (includes: boolean): Promise<ConfigEntry[]> => {
    const result = await runHostGit(
      layout,
      ["config", "--list", "--show-origin", includes ? "--includes" : "--no-includes", "-z"],
      { ...(options.env === undefined ? {} : { env: options.env }), timeoutMs: 30_000 },
    );
    return result.exitCode === 0 ? parseListing(result.stdout) : [];
  };
  for (const entry of await listing(true)) {
    if (!entry.origin.startsWith("file:")) continue;
    const file = realish(path.resolve(cwd, entry.origin.slice("file:".length)));
    if (modelWritten(file)) found.set(file, "is read as configuration");
  }
  for (const entry of await listing(false)) {
    if (!entry.origin.startsWith("file:") || entry.value === null) continue;
    if (!/^include(?:if\..*)?\.path$/i.test(entry.key)) continue;
    const file = realish(includeTarget(entry.value, entry.origin, cwd));
    if (modelWritten(file) && !found.has(file)) {
      found.set(file, `is included by ${entry.origin.slice("file:".length)} (${entry.key})`);
    }
  }
  return [...found].map(([file, how]) =>
    problem(
      HOST_GIT_CODES.includeInWorkTree,
      `The git configuration file ${file} ${how}, and it lies inside the working tree the model writes: git on the host would run what it names.`,
      {
        file,
        hint: "Remove the include from the repository's configuration (`git config --unset include.path`, or the includeIf section), or move the included file outside the working tree.",
      },
    ),
  );
}
