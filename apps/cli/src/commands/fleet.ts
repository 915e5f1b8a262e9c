import type { Problem } from "@climpt/model";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { fleetPackagesProblem } from "../optional-packages.ts";
import { orchestratorModule } from "../orchestrator-module.ts";
import type { Command } from "./command.ts";
import {
  booleanValue,
  parseCommandLine,
  reportUsageProblems,
  stringValue,
  writeJson,
} from "./command-line.ts";
import { HELP_FLAG, JSON_FLAG } from "./common-flags.ts";
import { QUEUE_FLAG, QUEUE_NAME_FLAG, queueUrlOf, usageProblem } from "./orchestrate-flags.ts";
import { formatFleet } from "./orchestrate-report.ts";

export const fleetCommand: Command = {
  name: "fleet",
  summary:
    "Show the fleet's queue: jobs by state, each issue's phase, the model limiter (climpt fleet status).",
  usage: ["climpt fleet status --queue redis://HOST:PORT [--json]"],
  flags: [QUEUE_FLAG, QUEUE_NAME_FLAG, JSON_FLAG, HELP_FLAG],
  details: [
    "Jobs waiting, active, delayed, completed and failed, each with the phase its issue is in and the worker that has it; and the shared limiter of model requests (in flight, limit, throttles, time paused).",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: ["action"] });
    if (!outcome.ok) return outcome.exitCode;
    const { values, positionals } = outcome.parsed;
    const json = booleanValue(values, "json") === true;
    const problems: Problem[] = [];
    if (positionals[0] !== "status") {
      problems.push(
        usageProblem(
          CLI_CODES.badArgument,
          `Unknown action "${positionals[0]}" of climpt fleet.`,
          "The action is status: climpt fleet status --queue URL.",
        ),
      );
    }
    const queue = await queueUrlOf(this, values, io, json);
    if (!queue.ok) return queue.exitCode;
    if (queue.url === undefined)
      problems.push(
        usageProblem(
          CLI_CODES.missingValue,
          "climpt fleet status needs --queue redis://HOST:PORT.",
        ),
      );
    const missing = await fleetPackagesProblem("climpt fleet status", io.cwd, io.env);
    if (missing !== null) problems.push(missing);
    if (problems.length > 0 || queue.url === undefined)
      return reportUsageProblems(io, this, problems, json);
    const { fleetStatus } = await orchestratorModule();
    const queueName = stringValue(values, "queueName");
    const status = await fleetStatus({
      queueUrl: queue.url,
      ...(queueName === undefined ? {} : { queueName }),
    });
    if (json) writeJson(io, status);
    else io.stdout.write(formatFleet(status));
    return EXIT.ok;
  },
};
