import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { closestMatch, fail, ok, type Result } from "@climpt/model";
import { loadAgent } from "./load-agent.ts";

export interface AgentLocationOptions {
  /**
   * Where climpt was started. Agents are looked up in `<cwd>/.agent/`, then in the `.agent/` of
   * each folder above, as git looks for `.git`, up to the repository root (the folder holding
   * `.git`) or the file system's root. Default `process.cwd()`.
   */
  readonly cwd?: string;
  /** Look agents up here instead (relative to `cwd`); no upward search. */
  readonly agentDir?: string;
}

function holdsAgent(dir: string): boolean {
  return existsSync(path.join(dir, "agent.json"));
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The `.agent` folders an agent name may be in, nearest first: `<cwd>/.agent`, then each parent's,
 * up to and including the repository root (the first folder with a `.git` folder or file) or the
 * file system's root. With `agentDir`, only that folder. From a subfolder of a repository,
 * `climpt validate hello` so finds the repository's `.agent/hello`, as `git status` finds `.git`.
 */
export function agentFolderCandidates(options: AgentLocationOptions = {}): string[] {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  if (options.agentDir !== undefined) return [path.resolve(cwd, options.agentDir)];
  const candidates: string[] = [];
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    candidates.push(path.join(dir, ".agent"));
    if (existsSync(path.join(dir, ".git")) || path.dirname(dir) === dir) return candidates;
  }
}

/** The `.agent` folder `listAgents` reads: the nearest existing one, else `<cwd>/.agent`. */
function agentsRoot(options: AgentLocationOptions): string {
  const candidates = agentFolderCandidates(options);
  return candidates.find(isFolder) ?? (candidates[0] as string);
}

/** The agent names in an `.agent` folder (subfolders holding an agent.json), sorted. */
function agentNames(root: string): string[] {
  try {
    return readdirSync(root)
      .filter((entry) => holdsAgent(path.join(root, entry)))
      .sort();
  } catch {
    return [];
  }
}

/**
 * The folder of an agent named on a command line (docs/design.md#the-agent-folder): a path to a
 * folder that holds an agent.json, else `<name>` in the nearest `.agent/` folder that has it
 * (`agentFolderCandidates`: the working folder's, then its parents' up to the repository root),
 * or in `agentDir`. `SR-LOAD-001` names every folder it looked in and, when an `.agent/` exists,
 * the agents in it (with a "did you mean"). Only path checks: a caller that only needs the folder
 * (a CLI's `validate`) does not pay for loading anything else.
 */
export function findAgentDir(
  nameOrPath: string,
  options: AgentLocationOptions = {},
): Result<string> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const tried: string[] = [];
  const looksLikePath =
    nameOrPath.includes("/") || nameOrPath.includes(path.sep) || nameOrPath.startsWith(".");
  const asPath = path.resolve(cwd, nameOrPath);
  if (looksLikePath || existsSync(asPath)) {
    tried.push(asPath);
    if (holdsAgent(asPath)) return ok(asPath);
  }
  const roots = looksLikePath ? [] : agentFolderCandidates(options);
  for (const root of roots) {
    const named = path.join(root, nameOrPath);
    tried.push(named);
    if (holdsAgent(named)) return ok(named);
  }
  return fail([
    {
      code: "SR-LOAD-001",
      severity: "error",
      message: `No agent "${nameOrPath}": no agent.json in ${tried.join(" or ")}.`,
      hint: notFoundHint(nameOrPath, roots.find(isFolder), cwd),
    },
  ]);
}

/**
 * What to do about an agent not found: with an `.agent/` folder in reach, the agents it holds and
 * the closest name; `climpt init` only where it would write into that folder, never a second,
 * nested `.agent/` below the one the repository has.
 */
function notFoundHint(name: string, existing: string | undefined, cwd: string): string {
  if (existing === undefined) {
    return "Create one with `climpt init <name>`, pass --agent-dir, or give the path of an agent folder.";
  }
  const names = agentNames(existing);
  const closest = closestMatch(name, names);
  const listed =
    names.length === 0
      ? `${existing} holds no agent yet.`
      : `${closest === undefined ? "" : `Did you mean "${closest}"? `}Agents in ${existing}: ${names.join(", ")}.`;
  const home = path.dirname(existing);
  const create =
    home === cwd
      ? "create one with `climpt init <name>`"
      : `create one from ${home} (\`cd ${home} && climpt init <name>\`)`;
  return `${listed} Name one of them, ${create}, or give the path of an agent folder.`;
}

export interface AgentListing {
  readonly name: string;
  readonly dir: string;
  readonly description?: string;
  /** Load-time errors (0 when it loads). */
  readonly problems: number;
}

/**
 * Every agent folder of the nearest `.agent/` (`agentFolderCandidates`) or of `agentDir`, loaded
 * to tell whether it is valid.
 */
export async function listAgents(options: AgentLocationOptions = {}): Promise<AgentListing[]> {
  const root = agentsRoot(options);
  if (!existsSync(root) || !statSync(root).isDirectory()) return [];
  const listings: AgentListing[] = [];
  for (const entry of readdirSync(root).sort()) {
    const dir = path.join(root, entry);
    if (!statSync(dir).isDirectory() || !holdsAgent(dir)) continue;
    const loaded = await loadAgent(dir);
    listings.push(
      loaded.ok
        ? {
            name: loaded.value.agent.name,
            dir,
            ...(loaded.value.agent.description === undefined
              ? {}
              : { description: loaded.value.agent.description }),
            problems: 0,
          }
        : {
            name: entry,
            dir,
            problems: loaded.issues.filter((issue) => issue.severity === "error").length,
          },
    );
  }
  return listings;
}
