import path from "node:path";
import type { BaselineSetup } from "@climpt/completion-chain";
import type { RunContext } from "../run/run-context.ts";
import { baselineLauncher } from "./command-sandboxes.ts";

/** What the completion chain compares failures with in this run, and how it runs the base. */
export function runBaselineSetup(ctx: RunContext): BaselineSetup {
  return {
    target: ctx.baseline,
    // Beside the journal, in the folder no command of the run may write: the model cannot plant
    // an outcome that makes its own failures look pre-existing.
    ...(ctx.journalPath === null
      ? {}
      : { cacheDir: path.join(path.dirname(ctx.journalPath), `${ctx.runId}.tmp`, "baseline") }),
    launcherFor: baselineLauncher(ctx),
    ...(ctx.env === undefined ? {} : { gitEnv: { ...process.env, ...ctx.env } }),
  };
}
