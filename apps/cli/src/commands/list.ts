import { statSync } from "node:fs";
import * as path from "node:path";
import { listAgents } from "@climpt/registry-schema";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { problemsFromError } from "../locate-agent.ts";
import { displayPath } from "../report-problems.ts";
import { runnerModule } from "../runner-module.ts";
import type { Command } from "./command.ts";
import {
  parseCommandLine,
  reportUsageProblems,
  resolveLocation,
  writeJson,
} from "./command-line.ts";
import { AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG, JSON_FLAG } from "./common-flags.ts";

function isFolder(dir: string): boolean {
  return statSync(dir, { throwIfNoEntry: false })?.isDirectory() === true;
}

interface ListedAgent {
  readonly name: string;
  readonly dir: string;
  readonly description: string | null;
  /** Whether `climpt validate` passes (warnings allowed). */
  readonly valid: boolean;
  readonly errors: number;
  readonly warnings: number;
}

export const listCommand: Command = {
  name: "list",
  summary: "List the agents under .agent/ with their description and whether they validate.",
  usage: ["climpt list [--agent-dir DIR] [--cwd DIR] [--json]"],
  flags: [JSON_FLAG, AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG],
  details: [
    'An agent is valid when `climpt validate` passes (warnings allowed). --json prints {"agentDir", "agents": [{name, dir, description, valid, errors, warnings}]}.',
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: [] });
    if (!outcome.ok) return outcome.exitCode;
    const json = outcome.parsed.values.get("json") === true;
    const location = resolveLocation(outcome.parsed.values, io);
    const agentDir = location.agentDir ?? path.join(location.cwd, ".agent");
    // No .agent/ yet is an empty list; a folder the user named that is not there is a mistake.
    if (location.agentDir !== undefined && !isFolder(location.agentDir)) {
      return reportUsageProblems(
        io,
        this,
        [
          {
            code: CLI_CODES.noFolder,
            severity: "error",
            message: `--agent-dir: no folder ${location.agentDir}.`,
            hint: "Pass the folder that holds the agent folders, or leave --agent-dir out for <cwd>/.agent.",
          },
        ],
        json,
      );
    }
    let found: Awaited<ReturnType<typeof listAgents>>;
    try {
      found = await listAgents(location);
    } catch (error) {
      return reportUsageProblems(io, this, problemsFromError(error), json);
    }
    const { checkAgent } = await runnerModule();
    const agents: ListedAgent[] = [];
    for (const entry of found) {
      const check = await checkAgent(entry.dir);
      const all = [...check.problems, ...check.findings];
      const errors = all.filter((problem) => problem.severity !== "warning").length;
      agents.push({
        name: entry.name,
        dir: entry.dir,
        description: check.loaded?.agent.description ?? entry.description ?? null,
        valid: errors === 0,
        errors,
        warnings: all.length - errors,
      });
    }
    if (json) {
      writeJson(io, { agentDir, agents });
      return EXIT.ok;
    }
    if (agents.length === 0) {
      io.stderr.write(
        `No agents in ${displayPath(agentDir, io.cwd)}. Create one with \`climpt init <name>\`.\n`,
      );
      return EXIT.ok;
    }
    const status = (agent: ListedAgent) =>
      agent.valid
        ? agent.warnings === 0
          ? "valid"
          : `valid (${agent.warnings} warning${agent.warnings === 1 ? "" : "s"})`
        : `invalid (${agent.errors} error${agent.errors === 1 ? "" : "s"})`;
    const nameWidth = Math.max(4, ...agents.map((agent) => agent.name.length));
    const statusWidth = Math.max(6, ...agents.map((agent) => status(agent).length));
    const lines = [`${"NAME".padEnd(nameWidth)}  ${"STATUS".padEnd(statusWidth)}  DESCRIPTION`];
    for (const agent of agents) {
      lines.push(
        `${agent.name.padEnd(nameWidth)}  ${status(agent).padEnd(statusWidth)}  ${agent.description ?? ""}`.trimEnd(),
      );
    }
    io.stdout.write(`${lines.join("\n")}\n`);
    if (agents.some((agent) => !agent.valid)) {
      io.stderr.write("Run `climpt validate <name>` to see an agent's problems.\n");
    }
    return EXIT.ok;
  },
};
