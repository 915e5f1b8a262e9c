import type { LoadedAgent } from "@climpt/model";
import { loadAgent } from "@climpt/registry-schema";
import type { ParsedFlags } from "../args/parse-flags.ts";
import type { CliIo } from "../cli-io.ts";
import { locateAgent } from "../locate-agent.ts";
import type { Command } from "./command.ts";
import { reportUsageProblems, resolveLocation } from "./command-line.ts";

/** Finds and loads `<agent>` for a command that needs a valid definition; exit 2 otherwise. */
export async function loadForCommand(
  command: Command,
  parsed: ParsedFlags,
  io: CliIo,
): Promise<{ ok: true; loaded: LoadedAgent } | { ok: false; exitCode: number }> {
  const json = parsed.values.get("json") === true;
  const dir = await locateAgent(
    parsed.positionals[0] as string,
    resolveLocation(parsed.values, io),
    io.cwd,
  );
  if (!dir.ok) return { ok: false, exitCode: reportUsageProblems(io, command, dir.issues, json) };
  const result = await loadAgent(dir.value);
  if (!result.ok) {
    io.stderr.write("The agent definition does not load; `climpt validate` lists every check.\n");
    return { ok: false, exitCode: reportUsageProblems(io, command, result.issues, json) };
  }
  return { ok: true, loaded: result.value };
}
