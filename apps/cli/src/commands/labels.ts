import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { orchestratorModule } from "../orchestrator-module.ts";
import type { Command } from "./command.ts";
import {
  booleanValue,
  parseCommandLine,
  reportUsageProblems,
  resolveLocation,
  stringValue,
  writeJson,
} from "./command-line.ts";
import { CWD_FLAG, HELP_FLAG, JSON_FLAG } from "./common-flags.ts";
import { DRY_RUN_FLAG, REPO_FLAG, usageProblem, WORKFLOW_FLAG } from "./orchestrate-flags.ts";
import { formatLabelSync } from "./orchestrate-report.ts";

export const labelsCommand: Command = {
  name: "labels",
  summary: "Create or update the GitHub labels the workflow uses (climpt labels sync).",
  usage: ["climpt labels sync [--dry-run] [--workflow PATH] [--repo OWNER/NAME] [--json]"],
  flags: [DRY_RUN_FLAG, WORKFLOW_FLAG, REPO_FLAG, CWD_FLAG, JSON_FLAG, HELP_FLAG],
  details: [
    "Creates each label of the workflow's `labels` that the repository lacks and updates the colour and description of those that differ (with the label prefix, when the workflow has one). A workflow without `labels` gets its phase and order labels created in a neutral colour. One label failing does not stop the others.",
    "Exit codes: 0 every label is in place, 1 some could not be created or updated (or gh failed), 2 bad usage or an invalid workflow.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: ["action"] });
    if (!outcome.ok) return outcome.exitCode;
    const { values, positionals } = outcome.parsed;
    const json = booleanValue(values, "json") === true;
    if (positionals[0] !== "sync") {
      return reportUsageProblems(
        io,
        this,
        [
          usageProblem(
            CLI_CODES.badArgument,
            `Unknown action "${positionals[0]}" of climpt labels.`,
            "The action is sync: climpt labels sync.",
          ),
        ],
        json,
      );
    }
    const { loadWorkflow, GhClient, syncLabels } = await orchestratorModule();
    const location = resolveLocation(values, io);
    const workflowPath = stringValue(values, "workflow");
    const loaded = await loadWorkflow(
      location.cwd,
      workflowPath === undefined ? {} : { path: workflowPath },
    );
    if (!loaded.ok) {
      io.stderr.write("The workflow does not load.\n");
      return reportUsageProblems(io, this, loaded.issues, json);
    }
    for (const warning of loaded.value.warnings) {
      io.stderr.write(`warning ${warning.code} ${warning.path ?? ""}: ${warning.message}\n`);
    }
    const gh = new GhClient({
      cwd: location.cwd,
      env: io.env,
      repo: stringValue(values, "repo") ?? null,
    });
    const dryRun = booleanValue(values, "dryRun") === true;
    const synced = await syncLabels(gh, loaded.value.workflow, { dryRun });
    if (!synced.ok) {
      io.stderr.write(
        `${synced.error.code}: ${synced.error.message}${synced.error.hint === undefined ? "" : ` Fix: ${synced.error.hint}`}\n`,
      );
      if (json) writeJson(io, { ok: false, error: synced.error });
      return EXIT.runFailed;
    }
    const failed = synced.value.some((entry) => entry.action === "failed");
    if (json) writeJson(io, { ok: !failed, dryRun, labels: synced.value });
    else io.stderr.write(`${dryRun ? "Dry run. " : ""}${formatLabelSync(synced.value)}`);
    return failed ? EXIT.runFailed : EXIT.ok;
  },
};
