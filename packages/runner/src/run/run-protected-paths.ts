import { mkdirSync, statSync } from "node:fs";
import path from "node:path";
import type { AgentDefinition } from "@climpt/model";
import type { ProtectedPath } from "@climpt/tools";

/** The folder, relative to a repository's top, that holds its agents (`climpt run` looks there). */
export const AGENTS_FOLDER = ".agent";

const JOURNAL_REASON =
  "the run's journal is the runner's record of this run (climpt resume and climpt runs trust it); only the runner writes it.";

const DEFINITIONS_REASON =
  "agent definitions decide what climpt runs later outside the sandbox (hooks, validators, the sandbox setting), so this agent may not change them (agent.json runner.boundaries.editAgents is not true). Describe the change you would make in your output instead.";

/** The top of the git work tree that holds `dir` (a `.git` folder or file there), or null. */
export function workTreeTop(dir: string): string | null {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    try {
      statSync(path.join(current, ".git"));
      return current;
    } catch {
      // Not here: look further up.
    }
    if (path.dirname(current) === current) return null;
  }
}

/**
 * What no tool of the run may change (docs/design.md#tools-and-their-boundary): the run's
 * journal folder, which `climpt resume` and `climpt runs` trust; and, unless the agent declares
 * `editAgents`, the agent definitions the host runs later — the `.agent/` folder of the working
 * directory and of its repository's top, and the running agent's own folder wherever it is. The
 * journal folder is made here when it is missing: the sandbox cannot hold an absent path
 * read-only, and a command could otherwise make one with a forged journal in it before the
 * journal's first line is written.
 */
export function runProtectedPaths(options: {
  /** Where the agent works (the worktree in worktree mode). */
  readonly cwd: string;
  readonly journalPath: string | null;
  readonly agentDir: string;
  readonly agent: AgentDefinition;
}): ProtectedPath[] {
  const paths: ProtectedPath[] = [];
  if (options.journalPath !== null) {
    const folder = path.dirname(options.journalPath);
    mkdirSync(folder, { recursive: true });
    paths.push({ path: folder, reason: JOURNAL_REASON });
  }
  if (options.agent.editAgents === true) return paths;
  const agentFolders = new Set([path.join(path.resolve(options.cwd), AGENTS_FOLDER)]);
  const top = workTreeTop(options.cwd);
  if (top !== null) agentFolders.add(path.join(top, AGENTS_FOLDER));
  agentFolders.add(path.resolve(options.agentDir));
  for (const folder of agentFolders) paths.push({ path: folder, reason: DEFINITIONS_REASON });
  return paths;
}
