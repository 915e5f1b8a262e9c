import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fail, ok, type Result } from "@climpt/model";
import { loadAgent } from "./load-agent.ts";

export interface AgentLocationOptions {
  /** The project folder; agents are looked up under `<cwd>/.agent/`. Default `process.cwd()`. */
  readonly cwd?: string;
  /** Look agents up here instead of `<cwd>/.agent`. */
  readonly agentDir?: string;
}

function agentsRoot(options: AgentLocationOptions): string {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  return options.agentDir === undefined
    ? path.join(cwd, ".agent")
    : path.resolve(cwd, options.agentDir);
}

function holdsAgent(dir: string): boolean {
  return existsSync(path.join(dir, "agent.json"));
}

/**
 * The folder of an agent named on a command line (docs/design.md#the-agent-folder): a path to a
 * folder that holds an agent.json, else `<agentDir ?? <cwd>/.agent>/<name>`. `SR-LOAD-001` names
 * every folder it looked in. Only path checks: a caller that only needs the folder (a CLI's
 * `validate`) does not pay for loading anything else.
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
  if (!looksLikePath) {
    const named = path.join(agentsRoot(options), nameOrPath);
    tried.push(named);
    if (holdsAgent(named)) return ok(named);
  }
  return fail([
    {
      code: "SR-LOAD-001",
      severity: "error",
      message: `No agent "${nameOrPath}": no agent.json in ${tried.join(" or ")}.`,
      hint: "Create one with `climpt init <name>`, pass --agent-dir, or give the path of an agent folder.",
    },
  ]);
}

export interface AgentListing {
  readonly name: string;
  readonly dir: string;
  readonly description?: string;
  /** Load-time errors (0 when it loads). */
  readonly problems: number;
}

/** Every agent folder under `<cwd>/.agent` (or `agentDir`), loaded to tell whether it is valid. */
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
