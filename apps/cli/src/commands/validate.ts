import type { FlagSpec } from "../args/flag-spec.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { locateAgent } from "../locate-agent.ts";
import {
  countLine,
  displayPath,
  formatProblemsByFile,
  hasErrors,
  problemJson,
} from "../report-problems.ts";
import { runnerModule } from "../runner-module.ts";
import type { Command } from "./command.ts";
import {
  parseCommandLine,
  reportUsageProblems,
  resolveLocation,
  writeJson,
} from "./command-line.ts";
import { AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG, JSON_FLAG } from "./common-flags.ts";

const CHECK_MCP_FLAG: FlagSpec = {
  name: "check-mcp",
  kind: "boolean",
  key: "checkMcp",
  description:
    "Also start the agent's MCP servers (in the sandbox, as a run would) and report allowedTools entries naming a tool a server does not offer (TOOL-MCP-006), or a server that does not start (TOOL-MCP-001).",
};

export const validateCommand: Command = {
  name: "validate",
  summary: "Check an agent definition: every load-time problem and flow finding at once.",
  usage: ["climpt validate <agent> [--json] [--check-mcp] [--agent-dir DIR] [--cwd DIR]"],
  flags: [JSON_FLAG, CHECK_MCP_FLAG, AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG],
  details: [
    "<agent> is a name under .agent/ (found as git finds .git: in <cwd>, then each folder above it up to the repository root; or under --agent-dir), or a path to an agent folder.",
    "Checks agent.json, steps_registry.json, the output schemas, the system prompt, every step, check and retry prompt (files and {uv-…} placeholders), the static flow analysis (reachability, completion, cycles, intents and transitions, handoff), what the run needs from the working folder (--cwd), and whether the OS sandbox its Bash, validators and program steps run in can start on this machine. `climpt run` makes the same checks before its first model call.",
    'Exit 2 when there is any error, 0 with warnings only. --json prints {"ok", "agent", "problems", "findings"}.',
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: ["agent"] });
    if (!outcome.ok) return outcome.exitCode;
    const { values, positionals } = outcome.parsed;
    const json = values.get("json") === true;
    const location = resolveLocation(values, io);
    const dir = await locateAgent(positionals[0] as string, location, io.cwd);
    if (!dir.ok) return reportUsageProblems(io, this, dir.issues, json);

    // The same checks `climpt run` makes before its first model call; the working folder's
    // problems and a sandbox that cannot start here are warnings, since validating runs nothing.
    const { checkAgent } = await runnerModule();
    const check = await checkAgent(dir.value, { cwd: location.cwd, sandbox: true });
    const mcp =
      values.get("checkMcp") === true && check.loaded !== undefined
        ? // Loaded only here: the MCP client is not part of a plain validate's start-up.
          await (await import("@climpt/tools")).checkMcpServers(check.loaded, { cwd: location.cwd })
        : [];
    const problems = [...check.problems, ...mcp];
    const all = [...problems, ...check.findings];
    const okay = !hasErrors(all);
    const name = check.loaded?.agent.name;
    if (json) {
      writeJson(io, {
        ok: okay,
        agent: { ...(name === undefined ? {} : { name }), dir: check.dir },
        problems: problems.map(problemJson),
        findings: check.findings.map(problemJson),
      });
    }
    const label = name ?? displayPath(check.dir, io.cwd);
    if (all.length === 0) {
      io.stderr.write(`${label}: valid (${countLine(all)})\n`);
    } else {
      io.stderr.write(formatProblemsByFile(all, io.cwd));
      io.stderr.write(okay ? `${label}: valid, with warnings\n` : `${label}: invalid\n`);
    }
    return okay ? EXIT.ok : EXIT.usage;
  },
};
