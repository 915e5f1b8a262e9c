import { toDot, toMermaid } from "@climpt/flow";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import type { Command } from "./command.ts";
import { parseCommandLine } from "./command-line.ts";
import { AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG } from "./common-flags.ts";
import { loadForCommand } from "./load-for-command.ts";

export const graphCommand: Command = {
  name: "graph",
  summary: "Draw an agent's step flow as Mermaid or Graphviz DOT.",
  usage: ["climpt graph <agent> [--format mermaid|dot] [--direction TD|LR]"],
  flags: [
    {
      name: "format",
      kind: "choice",
      key: "format",
      choices: ["mermaid", "dot"],
      description: "Diagram language (default: mermaid).",
    },
    {
      name: "direction",
      kind: "choice",
      key: "direction",
      choices: ["TD", "LR"],
      description: "Top-down (default) or left-to-right.",
    },
    AGENT_DIR_FLAG,
    CWD_FLAG,
    HELP_FLAG,
  ],
  details: [
    "Prints the diagram on stdout: `climpt graph fix-bug > flow.mmd`, `climpt graph fix-bug --format dot | dot -Tsvg > flow.svg`.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: ["agent"] });
    if (!outcome.ok) return outcome.exitCode;
    const load = await loadForCommand(this, outcome.parsed, io);
    if (!load.ok) return load.exitCode;
    const { registry, agent } = load.loaded;
    const { values } = outcome.parsed;
    const leftToRight = values.get("direction") === "LR";
    const diagram =
      values.get("format") === "dot"
        ? toDot(registry, { name: agent.name, rankdir: leftToRight ? "LR" : "TB" })
        : toMermaid(registry, { direction: leftToRight ? "LR" : "TD" });
    io.stdout.write(diagram.endsWith("\n") ? diagram : `${diagram}\n`);
    return EXIT.ok;
  },
};
