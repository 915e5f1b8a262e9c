import { existsSync, readdirSync } from "node:fs";
import * as path from "node:path";
import type { LoadedAgent, Problem, Result } from "@climpt/model";
import { listAgents } from "@climpt/registry-schema";
import { CLI_CODES } from "../cli-codes.ts";
import { locateAgent, problemsFromError } from "../locate-agent.ts";
import { runnerModule } from "../runner-module.ts";

export interface RunLocation {
  readonly cwd: string;
  readonly agentDir?: string;
}

/** One agent whose runs are journaled under `dir`. */
export interface JournaledAgent {
  readonly loaded: LoadedAgent;
  /** The agent's journal folder for runs started in `cwd`. */
  readonly dir: string;
}

/**
 * The agents under `.agent/` (or `agentDir`) that load, each with its journal folder for runs
 * started in `cwd`: where `climpt runs`, `show` and `resume` look for a run.
 */
export async function journaledAgents(location: RunLocation): Promise<JournaledAgent[]> {
  const { loadAgentDefinition, journalDirectory } = await runnerModule();
  const agents: JournaledAgent[] = [];
  for (const listing of await listAgents(location)) {
    // An agent that no longer loads cannot be resumed; `climpt list` reports it.
    if (listing.problems > 0) continue;
    const loaded = await loadAgentDefinition(listing.dir).catch(() => undefined);
    if (loaded === undefined) continue;
    agents.push({ loaded, dir: journalDirectory({ cwd: location.cwd, agent: loaded.agent }) });
  }
  return agents;
}

/** The journal files (`<runId>.jsonl`) of one journal folder. */
export function journalFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => path.join(dir, name));
}

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function noRun(runId: string, location: RunLocation, searched: number): Problem {
  return {
    code: CLI_CODES.noRun,
    severity: "error",
    message: `No run "${runId}" in the journals of the ${searched} agent${searched === 1 ? "" : "s"} under ${location.agentDir ?? path.join(location.cwd, ".agent")} (runs started in ${location.cwd}).`,
    hint: "`climpt runs` lists the runs. Run this from the folder the run was started in (or pass its --cwd), and give --agent AGENT when the agent is not under .agent/.",
  };
}

/** The agent whose journal holds run `runId`, among the agents under `.agent/`. */
export async function findRunJournal(
  runId: string,
  location: RunLocation,
): Promise<Result<JournaledAgent & { readonly file: string }>> {
  if (!RUN_ID.test(runId)) {
    return {
      ok: false,
      issues: [
        {
          code: "RUN-JOURNAL-003",
          severity: "error",
          message: `"${runId}" is not a run id.`,
          hint: "A run id is the journal's file name without .jsonl, as `climpt runs` lists it.",
        },
      ],
    };
  }
  const agents = await journaledAgents(location);
  for (const agent of agents) {
    const file = path.join(agent.dir, `${runId}.jsonl`);
    if (existsSync(file)) return { ok: true, value: { ...agent, file } };
  }
  return { ok: false, issues: [noRun(runId, location, agents.length)] };
}

/** The loaded agent of run `runId` (see `findRunJournal`). */
export async function findRunAgent(
  runId: string,
  location: RunLocation,
): Promise<Result<LoadedAgent>> {
  const found = await findRunJournal(runId, location);
  return found.ok ? { ok: true, value: found.value.loaded } : found;
}

/**
 * The agent of run `runId` for `climpt resume` and `climpt fork`: the one `--agent` names, or the
 * one whose journal holds the run.
 */
export async function loadRunAgent(
  runId: string,
  agentRef: string | undefined,
  location: RunLocation,
  cwd: string,
): Promise<Result<LoadedAgent>> {
  if (agentRef === undefined) return findRunAgent(runId, location);
  const dir = await locateAgent(agentRef, location, cwd);
  if (!dir.ok) return dir;
  const { loadAgentDefinition } = await runnerModule();
  try {
    return { ok: true, value: await loadAgentDefinition(dir.value) };
  } catch (error) {
    return { ok: false, issues: problemsFromError(error) };
  }
}
