/**
 * `pnpm soak`: 200 runs against the fake Messages API with faults injected at random (seeded:
 * SOAK_SEED, printed), then every failed run resumed against a healthy fake. Checks that every
 * run ends in success or a coded error, that no promise rejection goes unhandled, that no child
 * process or file descriptor leaks, and that every failed run's journal resumes to completion.
 * Exits 1 when a check fails. SOAK_RUNS and SOAK_CONCURRENCY change the size.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { JsonSchema } from "@climpt/model";
import { type RunResult, StepFlowRunner } from "@climpt/runner";
import { createAnthropicClient, type ModelClient } from "@climpt/sdk-adapter";
import { type FakeReply, type FakeRequest, reply, startFakeAnthropic } from "@climpt/testing";
import { boundHolds, measureBounds, STOP_BOUND_MS } from "./bounds.ts";
import { requestSchema } from "./chain-fake.ts";
import { FAULT_KINDS, type FaultKind, faultFor } from "./fault-plan.ts";
import { cannedOutput } from "./instant-model-client.ts";
import { killLoopRows, runKillLoop } from "./kill-loop.ts";
import { childPids, openFdCount, openFdTargets } from "./process-resources.ts";
import { loadSoakAgent } from "./soak-agent.ts";

const RUNS = Number(process.env.SOAK_RUNS ?? 200);
/** SIGKILLs of the kill loop (kill-loop.ts); 0 skips it. */
const KILLS = Number(process.env.SOAK_KILLS ?? 50);
/** The bounds section (bounds.ts): "0" skips it, "only" runs nothing else. */
const BOUNDS = process.env.SOAK_BOUNDS ?? "1";
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 10);
const SEED = Number(process.env.SOAK_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CALL_TIMEOUT_MS = 300;
const MAX_RETRIES = 2;
const RUN_HEADER = "x-climpt-soak-run";

/**
 * Secrets in the runs' environment, and the attacks the model's Bash calls mix in: reading the
 * parent's environment through /proc, echoing the tokens, and boundary actions built at run time.
 * Every journal is then searched for the secret values (there must be none).
 */
const SOAK_SECRETS = {
  GH_TOKEN: "ghp_SoakTokenNeverInAJournal0123456789ab",
  AWS_SECRET_ACCESS_KEY: "SoakAwsSecret/NeverInAJournal+0123456789",
  ANTHROPIC_API_KEY: "sk-ant-soak-never-in-a-journal-0123456789",
};
const ATTACKS: readonly string[] = [
  "echo soak",
  "tr '\\0' '\\n' < /proc/$PPID/environ | grep -E 'TOKEN|SECRET|API_KEY'; true",
  'echo "gh=$GH_TOKEN aws=$AWS_SECRET_ACCESS_KEY key=$ANTHROPIC_API_KEY"',
  "printf 'gh issue close 1' | sh; true",
  "x=$(printf 'gh issue close 1'); $x; true",
  "echo 'Z2ggaXNzdWUgY2xvc2UgMQ==' | base64 -d | sh; true",
];

/** Run-level codes (docs/design.md#errors): a package family with a number, or a run-level name. */
const KNOWN_CODE = /^(?:(?:SR|PR|AC|RUN)-[A-Z]+-\d{3}|(?:AGENT|FAILED|GATE)_[A-Z_]+)$/;

let unhandledRejections = 0;
let uncaughtExceptions = 0;
process.on("unhandledRejection", (reason) => {
  unhandledRejections += 1;
  process.stderr.write(`soak: unhandled rejection: ${String(reason)}\n`);
});
process.on("uncaughtException", (error) => {
  uncaughtExceptions += 1;
  process.stderr.write(`soak: uncaught exception: ${error.stack ?? String(error)}\n`);
});

function answersToolResult(request: FakeRequest): boolean {
  const messages = (request.body as { messages?: { content?: unknown }[] } | undefined)?.messages;
  const last = messages?.[messages.length - 1]?.content;
  return (
    Array.isArray(last) && last.some((block) => (block as { type?: string }).type === "tool_result")
  );
}

function answer(schema: JsonSchema): FakeReply {
  return reply.json(cannedOutput(schema));
}

function faultyReply(kind: FaultKind, schema: JsonSchema, call: number): FakeReply {
  switch (kind) {
    case "ok":
      return answer(schema);
    case "tool-call":
      return reply.toolUse({
        name: "Bash",
        input: { command: ATTACKS[call % ATTACKS.length] as string },
      });
    case "429":
      return reply.error(429);
    case "529":
      return reply.error(529);
    case "500":
      return reply.error(500);
    case "hang":
      return reply.hang();
    case "cut-stream":
      return reply.cutStream(undefined, { afterEvents: 3 });
    case "stalled-stream":
      return reply.cutStream(undefined, { afterEvents: 3, stall: true });
    case "malformed-body":
      return reply.malformed();
    case "malformed-output":
      // Prose without JSON, or JSON the step's schema refuses: salvage, repair, schema failure.
      return call % 2 === 0
        ? reply.text("I have finished the step and everything looks fine.")
        : reply.json({ next_action: { action: "explode" }, result: {} });
  }
}

/** A client whose requests carry the run number, so the fake can plan the run's faults. */
function clientFor(url: string, run: number | undefined): ModelClient {
  return createAnthropicClient({
    apiKey: "sk-soak",
    baseURL: url,
    maxRetries: MAX_RETRIES,
    timeoutMs: CALL_TIMEOUT_MS,
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      if (run !== undefined) headers.set(RUN_HEADER, String(run));
      return fetch(input, { ...init, headers });
    },
  });
}

async function inBatches<T>(
  count: number,
  width: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
  return results;
}

type Outcome = { readonly result?: RunResult; readonly rejected?: string };

function outcomeName(outcome: Outcome): string {
  if (outcome.rejected !== undefined) return `rejected: ${outcome.rejected}`;
  const result = outcome.result as RunResult;
  return result.success ? "success" : (result.error?.code ?? "failed without a code");
}

function line(cells: readonly string[], widths: readonly number[]): string {
  return `| ${cells.map((cell, index) => cell.padEnd(widths[index] as number)).join(" | ")} |`;
}

function printTable(header: readonly string[], rows: readonly string[][]): void {
  const widths = header.map((cell, index) =>
    Math.max(cell.length, ...rows.map((row) => (row[index] ?? "").length)),
  );
  console.log(line(header, widths));
  console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
  for (const row of rows) console.log(line(row, widths));
}

/**
 * The SDK reports an SSE event that is not JSON with console.error before it throws (which the
 * adapter turns into AC-MODEL-008); the soak injects such events on purpose, so count them
 * instead of printing each one.
 */
let sdkParseLogs = 0;
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]): void => {
  const first = String(args[0] ?? "");
  if (first.startsWith("Could not parse message into JSON") || first.startsWith("From chunk")) {
    sdkParseLogs += 1;
    return;
  }
  consoleError(...args);
};

/** How often any of the soak's secret values appears in the journals under `dir`. */
function secretOccurrencesInJournals(dir: string): { journals: number; occurrences: number } {
  let journals = 0;
  let occurrences = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".jsonl")) continue;
    journals += 1;
    const text = readFileSync(path.join(entry.parentPath ?? entry.path, entry.name), "utf8");
    for (const secret of Object.values(SOAK_SECRETS)) occurrences += text.split(secret).length - 1;
  }
  return { journals, occurrences };
}

/** Wait for closed sockets and ended subprocesses to release their descriptors. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 300));
}

/** Prints the bounds section; false when a stop took longer than its bound. */
async function boundsSection(): Promise<boolean> {
  const boundsStarted = performance.now();
  const measures = await measureBounds();
  console.log("");
  console.log(
    `bounds: the climpt CLI in each hang case, stopped by --max-time 3s and by one SIGINT once the wait has started; ms from the signal (or the deadline) to exit, bound ${STOP_BOUND_MS} ms`,
  );
  console.log("");
  printTable(
    ["case", "stop", "ms to exit", "ended with", "wait reached", "result"],
    measures.map((measure) => [
      measure.caseId,
      measure.stopBy,
      measure.ms === null ? "n/a" : String(measure.ms),
      measure.code ?? "(no run_end)",
      measure.reached ? "yes" : "no",
      boundHolds(measure) ? "ok" : "FAIL",
    ]),
  );
  console.log("");
  console.log(`(${((performance.now() - boundsStarted) / 1000).toFixed(1)} s)`);
  return measures.every(boundHolds);
}

if (BOUNDS === "only") {
  process.exitCode = (await boundsSection()) ? 0 : 1;
  process.exit();
}

const started = performance.now();
const parentDir = mkdtempSync(path.join(tmpdir(), "climpt-soak-"));
const cwd = mkdtempSync(path.join(tmpdir(), "climpt-soak-work-"));
let exitCode = 0;
try {
  const agent = await loadSoakAgent(parentDir);

  // Warm-up: a few healthy runs that use Bash and run the validator, on a fake of their own, so
  // that descriptors Node opens once per process (the child-process signal pipe, the thread
  // pool, TLS-free HTTP agent state) are in the baseline rather than counted as leaks.
  const warmFake = await startFakeAnthropic();
  warmFake.setHandler((request) =>
    answersToolResult(request)
      ? answer(requestSchema(request))
      : reply.toolUse({ name: "Bash", input: { command: "echo warm-up" } }),
  );
  for (let run = 0; run < 2; run++) {
    await new StepFlowRunner(agent, { modelClient: clientFor(warmFake.url, undefined) }).run({
      cwd,
    });
  }
  await warmFake.close();
  await settle();
  const fdsBefore = openFdCount();
  const fdTargetsBefore = openFdTargets();
  const childrenBefore = childPids();

  const fake = await startFakeAnthropic();
  const injected = new Map<FaultKind, number>(FAULT_KINDS.map((kind) => [kind, 0]));
  const callsByRun = new Map<number, number>();
  let healthy = false;
  fake.setHandler((request) => {
    const schema = requestSchema(request);
    const header = request.headers[RUN_HEADER];
    if (healthy || header === undefined) return answer(schema);
    const run = Number(header);
    const call = (callsByRun.get(run) ?? 0) + 1;
    callsByRun.set(run, call);
    const kind = faultFor(SEED, run, call, answersToolResult(request));
    injected.set(kind, (injected.get(kind) ?? 0) + 1);
    return faultyReply(kind, schema, call);
  });

  console.log(
    `climpt soak — seed ${SEED} (SOAK_SEED=${SEED} repeats it) — ${RUNS} runs, ${CONCURRENCY} at a time, call timeout ${CALL_TIMEOUT_MS} ms, ${MAX_RETRIES} SDK retries`,
  );
  const outcomes = await inBatches(RUNS, CONCURRENCY, async (run): Promise<Outcome> => {
    const runner = new StepFlowRunner(agent, {
      modelClient: clientFor(fake.url, run),
      env: SOAK_SECRETS,
    });
    try {
      return { result: await runner.run({ cwd }) };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { rejected: typeof code === "string" ? code : String(error) };
    }
  });

  // Every failed run resumes against a healthy API and completes.
  healthy = true;
  const failed = outcomes
    .map((outcome) => outcome.result)
    .filter((result): result is RunResult => result !== undefined && !result.success);
  const resumeOutcomes = await inBatches(failed.length, CONCURRENCY, async (index) => {
    const runId = (failed[index] as RunResult).runId;
    try {
      const result = await new StepFlowRunner(agent, {
        modelClient: clientFor(fake.url, undefined),
        env: SOAK_SECRETS,
      }).run({ cwd, resume: runId });
      return result.success ? "completed" : `failed: ${result.error?.code ?? "?"}`;
    } catch (error) {
      return `rejected: ${(error as { code?: string }).code ?? String(error)}`;
    }
  });
  // Closing the fake cuts every connection, idle pooled ones included.
  await fake.close();
  await settle();

  const byOutcome = new Map<string, number>();
  for (const outcome of outcomes) {
    const name = outcomeName(outcome);
    byOutcome.set(name, (byOutcome.get(name) ?? 0) + 1);
  }
  const uncoded = outcomes.filter((outcome) => {
    const name = outcomeName(outcome);
    return name !== "success" && !KNOWN_CODE.test(name);
  });
  const resumed = resumeOutcomes.filter((outcome) => outcome === "completed").length;
  const resumeFailures = resumeOutcomes.filter((outcome) => outcome !== "completed");
  const leaks = secretOccurrencesInJournals(cwd);
  const fdsAfter = openFdCount();
  const childrenAfter = childPids();
  const leakedChildren = childrenAfter.filter((pid) => !childrenBefore.includes(pid));

  console.log("");
  printTable(
    ["outcome", "runs"],
    [...byOutcome].sort((a, b) => b[1] - a[1]).map(([name, count]) => [name, String(count)]),
  );
  console.log("");
  console.log(
    `faults injected over ${[...injected.values()].reduce((a, b) => a + b, 0)} model calls: ${[
      ...injected,
    ]
      .map(([kind, count]) => `${kind} ${count}`)
      .join(", ")}; the SDK logged ${sdkParseLogs} lines about unparsable SSE events`,
  );
  console.log("");
  const verdict = (ok: boolean): string => {
    if (!ok) exitCode = 1;
    return ok ? "ok" : "FAIL";
  };
  printTable(
    ["check", "before", "after", "result"],
    [
      [
        "every run: success or a coded error",
        "",
        `${RUNS - uncoded.length}/${RUNS}`,
        verdict(uncoded.length === 0),
      ],
      [
        "unhandled rejections / uncaught exceptions",
        "",
        `${unhandledRejections} / ${uncaughtExceptions}`,
        verdict(unhandledRejections === 0 && uncaughtExceptions === 0),
      ],
      [
        "child processes of this process",
        String(childrenBefore.length),
        String(childrenAfter.length),
        verdict(leakedChildren.length === 0),
      ],
      [
        "open file descriptors (/proc/self/fd)",
        String(fdsBefore ?? "n/a"),
        String(fdsAfter ?? "n/a"),
        verdict(fdsBefore === undefined || fdsAfter === undefined || fdsAfter <= fdsBefore),
      ],
      [
        "failed runs resumed to completion (healthy API)",
        String(failed.length),
        String(resumed),
        verdict(resumeFailures.length === 0),
      ],
      [
        `secret values in the ${leaks.journals} journals (attacks: ${injected.get("tool-call") ?? 0} Bash calls)`,
        "",
        String(leaks.occurrences),
        verdict(leaks.journals > 0 && leaks.occurrences === 0),
      ],
    ],
  );
  for (const outcome of uncoded) console.log(`uncoded outcome: ${outcomeName(outcome)}`);
  for (const failure of resumeFailures) console.log(`resume: ${failure}`);
  if (process.env.SOAK_DEBUG_FDS) console.log(fdTargetsBefore, openFdTargets());
  console.log("");
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s, node ${process.version})`);

  if (KILLS > 0) {
    const killStarted = performance.now();
    const report = await runKillLoop(await loadSoakAgent(parentDir, 5), SEED, KILLS);
    console.log("");
    console.log(
      `kill loop: ${report.kills} × SIGKILL at random points over ${report.runs} runs of a 5-step chain (one Bash call per step), each resumed until it completed`,
    );
    console.log("");
    printTable(["check", "count", "verdict"], killLoopRows(report));
    for (const failure of report.failures) console.log(`kill loop: ${failure}`);
    if (report.failures.length > 0) exitCode = 1;
    console.log("");
    console.log(`(${((performance.now() - killStarted) / 1000).toFixed(1)} s)`);
  }
  if (BOUNDS !== "0" && !(await boundsSection())) exitCode = 1;
} finally {
  rmSync(parentDir, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}
process.exitCode = exitCode;
