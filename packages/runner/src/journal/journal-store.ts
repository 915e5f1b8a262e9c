import type { AgentDefinition } from "@climpt/model";
import { readJournal } from "../journal-read.ts";
import type { RunEvent } from "../run-event.ts";
import { endJournalAtLineBoundary, JournalWriter, journalPath } from "./journal.ts";
import type { JournalSink } from "./journal-sink.ts";

/** The journals of one agent's runs, by run id: the runner reads and writes them only here. */
export interface JournalStore {
  /** Where run `runId`'s journal is, as reported in `RunResult.journalPath` and messages. */
  locate(runId: string): string;
  /** Its events in order; a torn last event is dropped, any other damage is a coded error. */
  read(runId: string): Promise<RunEvent[]>;
  /** A new journal for a new run. */
  create(runId: string): JournalSink;
  /** The journal of a run that is resumed: appends after what is there. */
  reopen(runId: string): JournalSink;
}

/** What a replacement journal store is made for: one agent's runs kept from one folder. */
export interface JournalStoreScope {
  /** The folder the run started from (its journal files live under it). */
  readonly cwd: string;
  readonly agent: AgentDefinition;
  /** The file store of that folder: a store that keeps a local copy writes through it. */
  readonly files: JournalStore;
}

/** `RunnerOptions.journalStore`: builds the store a run reads and writes its journal through. */
export type JournalStoreFactory = (scope: JournalStoreScope) => JournalStore;

/** The run's journal store: the file store, or what `factory` makes of it. */
export function runJournalStore(
  options: {
    readonly cwd: string;
    readonly agent: AgentDefinition;
    readonly journalDir?: string | undefined;
    readonly fsync: boolean;
  },
  factory: JournalStoreFactory | undefined,
): JournalStore {
  const files = fileJournalStore(options);
  return factory === undefined ? files : factory({ cwd: options.cwd, agent: options.agent, files });
}

/** One JSON Lines file per run under `<cwd>/<agent logging.directory>` (or `journalDir`). */
export function fileJournalStore(options: {
  readonly cwd: string;
  readonly agent: AgentDefinition;
  readonly journalDir?: string | undefined;
  readonly fsync: boolean;
}): JournalStore {
  const locate = (runId: string): string =>
    journalPath({
      cwd: options.cwd,
      agent: options.agent,
      runId,
      ...(options.journalDir === undefined ? {} : { journalDir: options.journalDir }),
    });
  return {
    locate,
    read: async (runId) => readJournal(locate(runId)),
    create: (runId) => new JournalWriter(locate(runId), options.fsync),
    reopen: (runId) => {
      const file = locate(runId);
      // A crash mid-write leaves a last line without its newline: end the file at a line
      // boundary first, so the next event starts a line of its own.
      endJournalAtLineBoundary(file);
      return new JournalWriter(file, options.fsync);
    },
  };
}
