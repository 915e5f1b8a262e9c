// `pnpm test` after its install: turbo's test task in every package, then the slowest test files
// of this run (scripts/slowest-tests.mjs). Arguments go to turbo (`pnpm test --force`,
// `pnpm test --filter @climpt/router`). The exit code is turbo's: printing the times never hides
// a failure, and a failure never hides the times.
//
// The CLI's tests are the longest package (about half the suite's time) and the last one turbo's
// order makes ready, so on two cores they ran alone for the last five minutes. Without a filter,
// the builds run first, then the CLI's tests and everyone else's side by side, as two turbo runs
// of test tasks only (`--only`: neither rebuilds or replays a build the other reads).

import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";

const slowest = join(import.meta.dirname, "slowest-tests.mjs");
const CLI_PACKAGE = "climpt";
const signalNumbers = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };

function statusOf(command, result) {
  if (result.error) {
    console.error(`run-tests: ${command} did not start (${result.error.message})`);
    return 1;
  }
  // A signal (Ctrl-C, a CI timeout) is a failure too: 128 + its number, as a shell reports it.
  if (result.signal !== null) return 128 + (signalNumbers[result.signal] ?? 1);
  return result.status ?? 1;
}

function run(command, args) {
  return statusOf(command, spawnSync(command, args, { stdio: "inherit" }));
}

function runAsync(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.once("error", (error) => resolve(statusOf(command, { error })));
    child.once("close", (status, signal) => resolve(statusOf(command, { status, signal })));
  });
}

/**
 * CPU seconds (user + system) of every process this one started and waited for, through every
 * level that waited for its own (turbo, pnpm, vitest, its workers, the CLIs and gits they ran):
 * `cutime` + `cstime` of /proc/self/stat, in USER_HZ (100 on Linux). Undefined off Linux. A
 * daemon nobody waits for (a server a test left running) is not counted.
 */
function waitedCpuSeconds() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * One line on what the tests cost: their wall time, their CPU time, and the least wall time
 * that CPU time allows on this machine's cores. When the two are close, the suite is CPU-bound:
 * it gets faster only by doing less work, not by scheduling it differently.
 */
function printCost(startedAt, cpuBefore) {
  const cpuAfter = waitedCpuSeconds();
  if (cpuBefore === undefined || cpuAfter === undefined) return;
  const wall = (performance.now() - startedAt) / 1000;
  const cpu = cpuAfter - cpuBefore;
  const cores = availableParallelism();
  console.log(
    `\nThe tests took ${wall.toFixed(0)} s and ${cpu.toFixed(0)} CPU-s (every process they started); ` +
      `${cores} cores: at least ${(cpu / cores).toFixed(0)} s however they are scheduled.`,
  );
}

const args = process.argv.slice(2);
const filtered = args.some((arg) => arg === "-F" || arg.startsWith("--filter"));

// Reports of an earlier run must not pass for this one's (turbo restores a cached run's report).
run(process.execPath, [slowest, "--clear"]);
let status;
if (filtered) {
  status = run("turbo", ["run", "test", ...args]);
} else {
  status = run("turbo", ["run", "build", ...args]);
  if (status === 0) {
    const startedAt = performance.now();
    const cpuBefore = waitedCpuSeconds();
    const statuses = await Promise.all([
      runAsync("turbo", ["run", "test", "--only", `--filter=${CLI_PACKAGE}`, ...args]),
      runAsync("turbo", ["run", "test", "--only", `--filter=!${CLI_PACKAGE}`, ...args]),
    ]);
    status = statuses.find((code) => code !== 0) ?? 0;
    printCost(startedAt, cpuBefore);
  }
}
run(process.execPath, [slowest]);
process.exit(status);
