import { auditPolicy, formatPolicyAudit } from "@climpt/tools";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import type { Command } from "./command.ts";
import { parseCommandLine, writeJson } from "./command-line.ts";
import { AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG, JSON_FLAG } from "./common-flags.ts";
import { loadForCommand } from "./load-for-command.ts";

export const auditCommand: Command = {
  name: "audit",
  summary: "Show what each step may do: write files, run Bash, touch GitHub.",
  usage: ["climpt audit <agent> [--json]"],
  flags: [JSON_FLAG, AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG],
  details: [
    "The tool policy the runner enforces, per step: tools, permission mode, and the warnings of @climpt/tools (tool names climpt ignores, step lists that try to widen the agent's). Boundary Bash commands and paths outside the working directory are refused in every step.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: ["agent"] });
    if (!outcome.ok) return outcome.exitCode;
    const load = await loadForCommand(this, outcome.parsed, io);
    if (!load.ok) return load.exitCode;
    const audit = auditPolicy(load.loaded);
    if (outcome.parsed.values.get("json") === true) writeJson(io, audit);
    else {
      const text = formatPolicyAudit(audit);
      io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    }
    return EXIT.ok;
  },
};
