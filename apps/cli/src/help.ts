import { type FlagSpec, flagUsage } from "./args/flag-spec.ts";
import type { Command } from "./commands/command.ts";

function flagTable(flags: readonly FlagSpec[]): string[] {
  const shown = flags.filter((flag) => !flag.hidden);
  const labels = shown.map((flag) =>
    flag.short === undefined ? flagUsage(flag) : `-${flag.short}, ${flagUsage(flag)}`,
  );
  const width = Math.min(34, Math.max(0, ...labels.map((label) => label.length)));
  return shown.map((flag, index) => {
    const label = labels[index] as string;
    const pad = label.length >= width ? "  " : " ".repeat(width - label.length + 2);
    return `  ${label}${pad}${flag.description}`;
  });
}

/** `climpt <command> --help`; `parameterFlags` are the agent's, when the agent is known. */
export function formatCommandHelp(
  command: Command,
  parameterFlags: readonly FlagSpec[] = [],
  agentName?: string,
): string {
  const lines = [`${command.summary}`, "", "Usage:"];
  for (const usage of command.usage) lines.push(`  ${usage}`);
  lines.push("", "Flags:", ...flagTable(command.flags));
  if (parameterFlags.length > 0) {
    lines.push("", `Parameters of ${agentName ?? "the agent"}:`, ...flagTable(parameterFlags));
  }
  for (const paragraph of command.details ?? []) lines.push("", paragraph);
  return `${lines.join("\n")}\n`;
}

/** `climpt --help`. */
export function formatMainHelp(commands: readonly Command[], version: string): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    `climpt ${version}: run step-flow Claude agents described in .agent/<name>/`,
    "",
    "Usage: climpt <command> [arguments] [flags]",
    "",
    "Commands:",
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    "",
    "Run `climpt <command> --help` for a command's flags.",
    "",
    "Exit codes: 0 completed, 1 the run failed, 2 bad usage or an invalid agent definition, 3 an internal error (a bug in climpt), 130 a second Ctrl-C.",
    "Model access: ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL is honoured); --replay needs neither.",
    "",
  ].join("\n");
}
