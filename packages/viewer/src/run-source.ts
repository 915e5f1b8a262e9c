import * as path from "node:path";
import type { SecretScrubber } from "@climpt/model";
import { MAX_JOURNAL_BYTES } from "@climpt/protocol";
import { readRegularFileSync } from "@climpt/registry-schema";
import { summarizeJournal } from "./journal-adapter.ts";
import { isRecord, text } from "./journal-fields.ts";
import { parseJournalLines, skippedLinesNotice } from "./journal-lines.ts";
import { type DeclaredFlowResult, loadDeclaredFlow } from "./registry-flow.ts";
import type { RunSource, RunSummary } from "./view-model.ts";

/** Loads each agent's flow once per page or server, whatever the number of its runs. */
export class DeclaredFlowCache {
  private readonly flows = new Map<string, Promise<DeclaredFlowResult>>();

  get(agentDir: string): Promise<DeclaredFlowResult> {
    let flow = this.flows.get(agentDir);
    if (flow === undefined) {
      flow = loadDeclaredFlow(agentDir);
      this.flows.set(agentDir, flow);
    }
    return flow;
  }
}

/** The run id a journal file stands for: its name without `.jsonl`. */
export function runIdOfFile(file: string): string {
  const base = path.basename(file);
  return base.endsWith(".jsonl") ? base.slice(0, -".jsonl".length) : base;
}

/** The agent folder a run was started with, from its run_start. */
export function agentDirOf(events: readonly unknown[]): string | null {
  const start = events.find((event) => isRecord(event) && event.type === "run_start");
  return isRecord(start) ? text(start.agentDir) : null;
}

export interface LoadedRun {
  readonly source: RunSource;
  readonly summary: RunSummary;
}

/**
 * A journal as the page receives it: parsed (bad lines skipped and reported), every string
 * scrubbed, with its agent's declared flow. Reads the journal; never writes it.
 */
export async function loadRunSource(
  file: string,
  scrubber: SecretScrubber,
  flows: DeclaredFlowCache,
): Promise<LoadedRun> {
  const runId = runIdOfFile(file);
  const read = readRegularFileSync(file, { maxBytes: MAX_JOURNAL_BYTES });
  if (!read.ok) throw new Error(`The journal ${file} ${read.detail}.`);
  const parsed = parseJournalLines(read.bytes.toString("utf8"));
  return buildRunSource(
    runId,
    file,
    parsed.events,
    parsed.skippedLines,
    scrubber,
    flows,
    parsed.refusedLines,
  );
}

export async function buildRunSource(
  runId: string,
  file: string,
  rawEvents: readonly unknown[],
  skippedLines: readonly number[],
  scrubber: SecretScrubber,
  flows: DeclaredFlowCache,
  refusedLines: readonly number[] = [],
): Promise<LoadedRun> {
  const events = rawEvents.map((event) => scrubber.scrubJson(event));
  const notices = skippedLinesNotice(path.basename(file), skippedLines, refusedLines);
  const agentDir = agentDirOf(rawEvents);
  let declaredFlow: RunSource["declaredFlow"] = null;
  if (agentDir === null) {
    notices.push("The journal has no run_start; the flow shows only the path the run took.");
  } else {
    const flow = await flows.get(agentDir);
    if (flow.ok) declaredFlow = flow.flow;
    else notices.push(scrubber.scrub(flow.reason));
  }
  return {
    source: { runId, events, declaredFlow, notices },
    summary: summarizeJournal(events, runId),
  };
}
