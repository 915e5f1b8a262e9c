// `pnpm test` after its install: turbo's test task in every package, then the slowest test files
// of this run (scripts/slowest-tests.mjs). Arguments go to turbo (`pnpm test --force`,
// `pnpm test --filter @climpt/router`). The exit code is turbo's: printing the times never hides
// a failure, and a failure never hides the times.

import { spawnSync } from "node:child_process";
import { join } from "node:path";

const slowest = join(import.meta.dirname, "slowest-tests.mjs");

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.error) {
    console.error(`run-tests: ${command} did not start (${result.error.message})`);
    return 1;
  }
  // A signal (Ctrl-C, a CI timeout) is a failure too: 128 + its number, as a shell reports it.
  if (result.signal !== null) return 128 + (signalNumbers[result.signal] ?? 1);
  return result.status ?? 1;
}

const signalNumbers = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };

// Reports of an earlier run must not pass for this one's (turbo restores a cached run's report).
run(process.execPath, [slowest, "--clear"]);
const status = run("turbo", ["run", "test", ...process.argv.slice(2)]);
run(process.execPath, [slowest]);
process.exit(status);
