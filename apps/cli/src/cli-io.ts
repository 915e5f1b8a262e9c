/** Where a command writes text. */
export interface TextSink {
  write(text: string): void;
}

/** stderr, plus what the progress display needs to know about it. */
export interface TerminalSink extends TextSink {
  /** True when a person is watching: the display redraws a status line. */
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export type StopSignal = "SIGINT" | "SIGTERM";

/**
 * Everything a command touches outside its arguments. `bin.ts` passes the process; tests pass
 * buffers, so commands run in-process without spawning.
 */
export interface CliIo {
  /** Only machine output: `--json` objects, diagrams, schemas. */
  readonly stdout: TextSink;
  /** Everything for people: progress, problems, hints. */
  readonly stderr: TerminalSink;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory the user ran climpt from; relative paths on the command line start here. */
  readonly cwd: string;
  /** Calls `handler` on SIGINT / SIGTERM until the returned function is called. */
  readonly onStopSignal?: (handler: (signal: StopSignal) => void) => () => void;
  /**
   * Asks a person a question on the terminal and returns the line they typed. Present only when
   * stdin is a terminal: a command that would ask otherwise reports a coded error instead.
   */
  readonly ask?: (question: string) => Promise<string>;
  /** Ends the process at once (a second Ctrl-C). */
  readonly exitNow?: (code: number) => void;
}
