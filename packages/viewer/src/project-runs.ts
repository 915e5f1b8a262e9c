import * as path from "node:path";
import type { SecretScrubber } from "@climpt/model";
import { journalFolders, journalsInFolders, type ProjectLocation } from "./discover-runs.ts";
import { summarizeJournal } from "./journal-adapter.ts";
import { skippedLinesNotice } from "./journal-lines.ts";
import { JournalTail } from "./journal-tail.ts";
import { agentDirOf, DeclaredFlowCache } from "./run-source.ts";
import type { RunSource, RunSummary } from "./view-model.ts";

interface TrackedRun {
  readonly runId: string;
  readonly tail: JournalTail;
  /** Scrubbed events, in journal order. */
  events: unknown[];
  summary: RunSummary;
}

export interface ProjectChange {
  /** The runs list changed (a run appeared, or a summary moved on). */
  readonly runsChanged: boolean;
  /** Run id → how many events it had before this change (the new ones follow). */
  readonly appended: ReadonlyMap<string, number>;
  /** Runs whose journal was replaced: their events start over. */
  readonly reset: ReadonlySet<string>;
}

/** How often the list of journal folders is read again, in polls (new agents, new folders). */
const FOLDER_REFRESH_POLLS = 8;

/**
 * The runs of a project, kept up to date by polling: new journals appear, growing journals are
 * tailed (only the appended bytes are read). Reads journals; never writes them.
 */
export class ProjectRuns {
  private readonly runs = new Map<string, TrackedRun>();
  private folders: string[] = [];
  private polls = 0;
  private readonly flows = new DeclaredFlowCache();

  constructor(
    private readonly location: ProjectLocation,
    private readonly scrubber: SecretScrubber,
  ) {}

  /** Newest first. */
  summaries(): RunSummary[] {
    return [...this.runs.values()]
      .sort((a, b) => b.runId.localeCompare(a.runId))
      .map((run) => run.summary);
  }

  has(runId: string): boolean {
    return this.runs.has(runId);
  }

  eventsOf(runId: string, from: number): unknown[] {
    return this.runs.get(runId)?.events.slice(from) ?? [];
  }

  async source(runId: string): Promise<RunSource | null> {
    const run = this.runs.get(runId);
    if (run === undefined) return null;
    const notices = skippedLinesNotice(
      path.basename(run.tail.path),
      run.tail.skippedLines,
      run.tail.refusedLines,
    );
    const agentDir = agentDirOf(run.events);
    let declaredFlow: RunSource["declaredFlow"] = null;
    if (agentDir !== null) {
      const flow = await this.flows.get(agentDir);
      if (flow.ok) declaredFlow = flow.flow;
      else notices.push(this.scrubber.scrub(flow.reason));
    }
    return { runId, events: [...run.events], declaredFlow, notices };
  }

  /** Reads what changed since the last poll. */
  async poll(): Promise<ProjectChange> {
    if (this.polls % FOLDER_REFRESH_POLLS === 0) this.folders = await journalFolders(this.location);
    this.polls++;
    let runsChanged = false;
    const appended = new Map<string, number>();
    const reset = new Set<string>();
    for (const journal of journalsInFolders(this.folders)) {
      let run = this.runs.get(journal.runId);
      if (run === undefined) {
        run = {
          runId: journal.runId,
          tail: new JournalTail(journal.path),
          events: [],
          summary: summarizeJournal([], journal.runId),
        };
        this.runs.set(journal.runId, run);
        runsChanged = true;
      }
      const update = run.tail.poll();
      if (update.reset) {
        run.events = [];
        reset.add(run.runId);
      }
      if (update.events.length === 0 && !update.reset) continue;
      const before = run.events.length;
      run.events.push(...update.events.map((event) => this.scrubber.scrubJson(event)));
      if (!update.reset) appended.set(run.runId, before);
      run.summary = summarizeJournal(run.events, run.runId);
      runsChanged = true;
    }
    return { runsChanged, appended, reset };
  }
}
