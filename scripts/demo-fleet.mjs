// `pnpm demo:fleet`: the fleet, offline. A private redis-server, six issues in a fake gh, the fake
// Messages API scripting every agent, `climpt orchestrate --queue … --prioritize` enqueueing
// them, two `climpt worker` processes taking them, and the worker running issue #3's implementer
// SIGKILLed while that run waits for a model reply. The other worker resumes the run from its
// journal. Prints one JSON summary on stdout; the workers' logs go to stderr.
//   node scripts/demo-fleet.mjs [--quiet]
import path from "node:path";
import { runFleetScenario } from "@climpt/testing";

const ROOT = path.resolve(import.meta.dirname, "..");
const quiet = process.argv.includes("--quiet");
const run = await runFleetScenario({
  cliPath: path.join(ROOT, "apps", "cli", "dist", "bin.mjs"),
  log: quiet ? undefined : (worker, line) => process.stderr.write(`[${worker}] ${line}\n`),
});
process.stdout.write(`${JSON.stringify(run.summary)}\n`);
const ok =
  run.summary.terminal + run.summary.blocked === run.summary.issues &&
  run.summary.repeatedModelCalls === 0;
await run.cleanUp();
// The fake API may still hold the killed worker's delayed reply on a timer: exit now.
process.exit(ok ? 0 : 1);
