/**
 * The kill loop of `pnpm soak`: runs of a chain whose every step calls a tool are killed with
 * SIGKILL at random points (`KILL_LOOP_KILLS`, default 50, in all), each resumed until it
 * completes. It checks what resume promises:
 *
 * - no completed model call is repeated: once a reply is in the journal, the fake API never
 *   again receives the request it answered (every reply carries the number of its request, so
 *   the journal says which requests completed; a request is identified by its messages);
 * - no completed tool call is repeated: the tool appends its call's number to a counter file;
 *   a call whose result was in the journal when the process died never appends again;
 * - no journal is unreadable: after every kill, the runner's own reader accepts the journal;
 * - every run completes.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { JsonValue, LoadedAgent } from "@climpt/model";
import { journalDirectory, type RunEvent, readJournal } from "@climpt/runner";
import { type FakeRequest, reply, startFakeAnthropic } from "@climpt/testing";
import { requestSchema } from "./chain-fake.ts";
import { unitRandom } from "./fault-plan.ts";
import { cannedOutput } from "./instant-model-client.ts";

const CHILD = path.join(import.meta.dirname, "kill-child.mjs");
const COUNTER = "tool-calls.log";
/** Attempts of one run that may be killed before it is left to complete. */
const KILLS_PER_RUN = 3;
/** A hung child is a failure, not a wait without end. */
const ATTEMPT_LIMIT_MS = 120_000;

export interface KillLoopReport {
  readonly runs: number;
  readonly kills: number;
  /** Kills by the last journaled event type at the moment of the kill. */
  readonly killedAfter: Readonly<Record<string, number>>;
  readonly requests: number;
  /** Requests sent again whose earlier reply had not reached the journal (allowed). */
  readonly resentUnjournaled: number;
  readonly toolRuns: number;
  /** Tools run again after a kill before their result was journaled (allowed). */
  readonly toolReruns: number;
  readonly tornLastLines: number;
  readonly failures: readonly string[];
}

interface Received {
  readonly index: number;
  readonly key: string;
}

function answersToolResult(request: FakeRequest): boolean {
  const messages = (request.body as { messages?: { content?: unknown }[] } | undefined)?.messages;
  const last = messages?.[messages.length - 1]?.content;
  return Array.isArray(last) && last.some((block) => block?.type === "tool_result");
}

function messagesKey(request: FakeRequest): string {
  return JSON.stringify((request.body as { messages?: unknown } | undefined)?.messages ?? null);
}

/** A step's first call asks for the tool; the call after the tool's result gives the output. */
function replyFor(request: FakeRequest): ReturnType<typeof reply.json> {
  const marker = `req${request.index}`;
  if (!answersToolResult(request)) {
    return reply.toolUse({
      name: "Bash",
      id: `toolu_${marker}`,
      input: { command: `echo ${marker} >> ${COUNTER}` },
    });
  }
  const output = cannedOutput(requestSchema(request)) as Record<string, JsonValue>;
  const nextAction = output.next_action as Record<string, JsonValue>;
  return reply.json({ ...output, next_action: { ...nextAction, reason: marker } });
}

function journalOf(agent: LoadedAgent, cwd: string): string | undefined {
  const dir = journalDirectory({ cwd, agent: agent.agent });
  if (!existsSync(dir)) return undefined;
  const file = readdirSync(dir).find((name) => name.endsWith(".jsonl"));
  return file === undefined ? undefined : path.join(dir, file);
}

function counterLines(cwd: string): Map<string, number> {
  const counts = new Map<string, number>();
  const file = path.join(cwd, COUNTER);
  if (!existsSync(file)) return counts;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() !== "") counts.set(line.trim(), (counts.get(line.trim()) ?? 0) + 1);
  }
  return counts;
}

/** Request numbers whose replies the journal holds. */
function journaledRequests(events: readonly RunEvent[]): Set<number> {
  const found = new Set<number>();
  for (const event of events) {
    if (event.type !== "model_response") continue;
    for (const match of JSON.stringify(event.content).matchAll(/req(\d+)/g)) {
      found.add(Number(match[1]));
    }
  }
  return found;
}

/** Tool calls whose result the journal holds (not one cut off by a stop). */
function completedTools(events: readonly RunEvent[]): Set<string> {
  const done = new Set<string>();
  for (const event of events) {
    if (event.type !== "tool_result" || event.interrupted === true) continue;
    const marker = /req\d+/.exec(event.call.id)?.[0];
    if (marker !== undefined) done.add(marker);
  }
  return done;
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

export async function runKillLoop(
  agent: LoadedAgent,
  seed: number,
  totalKills = Number(process.env.KILL_LOOP_KILLS ?? 50),
): Promise<KillLoopReport> {
  const fake = await startFakeAnthropic();
  const received: Received[] = [];
  let onRequest: (() => void) | undefined;
  fake.setHandler((request) => {
    if (request.path !== "/v1/messages") return undefined;
    received.push({ index: request.index, key: messagesKey(request) });
    onRequest?.();
    return replyFor(request);
  });

  const failures: string[] = [];
  const killedAfter: Record<string, number> = {};
  let kills = 0;
  let runs = 0;
  let resentUnjournaled = 0;
  let toolRuns = 0;
  let toolReruns = 0;
  let tornLastLines = 0;
  let draw = 0;
  const random = (): number => unitRandom(seed, 0x6b696c6c, draw++);

  try {
    while (kills < totalKills) {
      runs += 1;
      const cwd = mkdtempSync(path.join(tmpdir(), "climpt-kill-loop-"));
      const firstRequest = received.length;
      /** Tool call → its counter lines when a kill found its result journaled. */
      const completedAtKill = new Map<string, number>();
      try {
        let runId: string | undefined;
        for (let attempt = 0; ; attempt++) {
          const killThis = attempt < KILLS_PER_RUN && kills < totalKills;
          const child = spawn(
            process.execPath,
            [CHILD, agent.dir, cwd, fake.url, ...(runId === undefined ? [] : [runId])],
            { stdio: ["ignore", "pipe", "pipe"] },
          );
          let stdout = "";
          let stderr = "";
          child.stdout?.on("data", (chunk: Buffer) => {
            stdout += chunk.toString();
          });
          child.stderr?.on("data", (chunk: Buffer) => {
            stderr += chunk.toString();
          });
          let killed = false;
          const kill = (): void => {
            if (child.exitCode !== null || child.signalCode !== null) return;
            killed = child.kill("SIGKILL");
          };
          const timers: NodeJS.Timeout[] = [];
          if (killThis) {
            // The kill lands after `after` requests of this attempt (0: while the run starts),
            // plus a random delay: in a model call, a tool, a journal write, the validator.
            const after = Math.floor(random() * 13);
            const delay = Math.floor(random() * (after === 0 ? 400 : 60));
            let seen = 0;
            if (after === 0) timers.push(setTimeout(kill, delay));
            else
              onRequest = () => {
                seen += 1;
                if (seen === after) timers.push(setTimeout(kill, delay));
              };
          }
          const hang = setTimeout(() => {
            failures.push(`run ${runs}: attempt ${attempt} hung; killed`);
            child.kill("SIGKILL");
          }, ATTEMPT_LIMIT_MS);
          await exitOf(child);
          clearTimeout(hang);
          for (const timer of timers) clearTimeout(timer);
          onRequest = undefined;

          const journal = journalOf(agent, cwd);
          runId ??= journal === undefined ? undefined : path.basename(journal, ".jsonl");
          if (!killed) {
            const last = stdout.trim().split("\n").at(-1) ?? "";
            if (!last.includes('"done":true')) {
              failures.push(
                `run ${runs}: attempt ${attempt} ended without success: ${last || stderr.slice(-400)}`,
              );
            }
            break;
          }
          kills += 1;
          if (journal === undefined) {
            killedAfter["(no journal yet)"] = (killedAfter["(no journal yet)"] ?? 0) + 1;
            continue;
          }
          if (!readFileSync(journal, "utf8").endsWith("\n")) tornLastLines += 1;
          let events: RunEvent[];
          try {
            events = readJournal(journal);
          } catch (error) {
            failures.push(`run ${runs}: journal unreadable after a kill: ${String(error)}`);
            break;
          }
          const lastType = events.at(-1)?.type ?? "(empty)";
          killedAfter[lastType] = (killedAfter[lastType] ?? 0) + 1;
          const counts = counterLines(cwd);
          for (const marker of completedTools(events)) {
            if (!completedAtKill.has(marker)) completedAtKill.set(marker, counts.get(marker) ?? 0);
          }
        }

        // The run's checks, over every request it made and its final journal.
        const journal = journalOf(agent, cwd);
        const events = journal === undefined ? [] : readJournal(journal);
        const journaled = journaledRequests(events);
        const mine = received.slice(firstRequest);
        for (const request of mine) {
          const again = mine.filter(
            (later) => later.index > request.index && later.key === request.key,
          );
          if (again.length === 0) continue;
          if (journaled.has(request.index)) {
            failures.push(
              `run ${runs}: request ${request.index} was answered and journaled, yet sent again as ${again.map((r) => r.index).join(", ")}`,
            );
          } else {
            resentUnjournaled += 1;
          }
        }
        const counts = counterLines(cwd);
        for (const count of counts.values()) {
          toolRuns += count;
          toolReruns += count - 1;
        }
        for (const [marker, atKill] of completedAtKill) {
          const now = counts.get(marker) ?? 0;
          if (now !== atKill) {
            failures.push(
              `run ${runs}: tool call ${marker} had its result journaled, yet ran again (${atKill} → ${now} runs)`,
            );
          }
        }
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    }
  } finally {
    await fake.close();
  }
  return {
    runs,
    kills,
    killedAfter,
    requests: received.length,
    resentUnjournaled,
    toolRuns,
    toolReruns,
    tornLastLines,
    failures,
  };
}

/** The loop's report as rows of check, count and verdict. */
export function killLoopRows(report: KillLoopReport): string[][] {
  const has = (text: string): boolean => report.failures.some((failure) => failure.includes(text));
  const verdict = (ok: boolean): string => (ok ? "ok" : "FAILED");
  const where = Object.entries(report.killedAfter)
    .sort((a, b) => b[1] - a[1])
    .map(([type, count]) => `${type} ${count}`)
    .join(", ");
  return [
    ["kills (last journaled event: count)", `${report.kills} (${where})`, ""],
    ["model requests received", String(report.requests), ""],
    [
      "requests sent again whose reply had not reached the journal (allowed)",
      String(report.resentUnjournaled),
      "",
    ],
    [
      "completed model calls sent again",
      has("yet sent again") ? "≥ 1" : "0",
      verdict(!has("yet sent again")),
    ],
    ["tool runs (counter file lines)", String(report.toolRuns), ""],
    [
      "tool reruns of a call whose result was not journaled (allowed)",
      String(report.toolReruns),
      "",
    ],
    [
      "completed tool calls run again",
      has("yet ran again") ? "≥ 1" : "0",
      verdict(!has("yet ran again")),
    ],
    ["journals with a cut-off last line after a kill", String(report.tornLastLines), ""],
    [
      "journals unreadable after a kill",
      has("unreadable") ? "≥ 1" : "0",
      verdict(!has("unreadable")),
    ],
    [
      "runs completed after resume",
      `${report.runs - report.failures.filter((f) => f.includes("without success") || f.includes("hung")).length} / ${report.runs}`,
      verdict(!has("without success") && !has("hung")),
    ],
  ];
}
