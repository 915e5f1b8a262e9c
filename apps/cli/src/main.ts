import { ClimptError, closestMatch } from "@climpt/model";
import { CLI_CODES } from "./cli-codes.ts";
import type { CliIo } from "./cli-io.ts";
import { auditCommand } from "./commands/audit.ts";
import type { Command } from "./commands/command.ts";
import { reportUsageProblems, wantsJson } from "./commands/command-line.ts";
import { evalCommand } from "./commands/eval.ts";
import { fleetCommand } from "./commands/fleet.ts";
import { forkCommand } from "./commands/fork.ts";
import { graphCommand } from "./commands/graph.ts";
import { initCommand } from "./commands/init.ts";
import { labelsCommand } from "./commands/labels.ts";
import { listCommand } from "./commands/list.ts";
import { mockCommand } from "./commands/mock.ts";
import { orchestrateCommand } from "./commands/orchestrate.ts";
import { promptCommand } from "./commands/prompt.ts";
import { resumeCommand } from "./commands/resume.ts";
import { runCommand } from "./commands/run.ts";
import { runsCommand } from "./commands/runs.ts";
import { schemaCommand } from "./commands/schema.ts";
import { showCommand } from "./commands/show.ts";
import { validateCommand } from "./commands/validate.ts";
import { verifyCommand } from "./commands/verify.ts";
import { viewCommand } from "./commands/view.ts";
import { workerCommand } from "./commands/worker.ts";
import { EXIT } from "./exit-codes.ts";
import { formatCommandHelp, formatMainHelp } from "./help.ts";
import { CLI_VERSION } from "./version.ts";

/** Every command, in the order `climpt --help` lists them. */
export const COMMANDS: readonly Command[] = [
  runCommand,
  resumeCommand,
  forkCommand,
  runsCommand,
  showCommand,
  verifyCommand,
  promptCommand,
  validateCommand,
  graphCommand,
  listCommand,
  initCommand,
  mockCommand,
  schemaCommand,
  auditCommand,
  viewCommand,
  evalCommand,
  orchestrateCommand,
  labelsCommand,
  workerCommand,
  fleetCommand,
];

/**
 * The whole CLI as a function: arguments in, exit code out, all output through `io`.
 * `bin.ts` calls it with the process; tests call it with buffers.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    // Not asked for help: a usage error, so the text goes to stderr.
    io.stderr.write(formatMainHelp(COMMANDS, CLI_VERSION));
    return EXIT.usage;
  }
  if (name === "--help" || name === "-h") {
    io.stdout.write(formatMainHelp(COMMANDS, CLI_VERSION));
    return EXIT.ok;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    io.stdout.write(`${CLI_VERSION}\n`);
    return EXIT.ok;
  }
  if (name === "help") {
    const topic = COMMANDS.find((command) => command.name === rest[0]);
    io.stdout.write(
      topic === undefined ? formatMainHelp(COMMANDS, CLI_VERSION) : formatCommandHelp(topic),
    );
    return EXIT.ok;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) {
    const suggestion = closestMatch(
      name,
      COMMANDS.map((candidate) => candidate.name),
    );
    return reportUsageProblems(
      io,
      undefined,
      [
        {
          code: CLI_CODES.unknownCommand,
          severity: "error",
          message: name.startsWith("-")
            ? `Expected a command before ${name}.`
            : `Unknown command "${name}".`,
          hint: `${suggestion === undefined ? "" : `Did you mean climpt ${suggestion}? `}Commands: ${COMMANDS.map((candidate) => candidate.name).join(", ")}.`,
        },
      ],
      wantsJson(rest),
    );
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    // A ClimptError that escaped a command is still a user-facing failure with a code.
    if (ClimptError.isInstance(error)) {
      io.stderr.write(
        `${error.code}: ${error.message}${error.hint === undefined ? "" : ` Fix: ${error.hint}`}\n`,
      );
      return EXIT.runFailed;
    }
    throw error;
  }
}
