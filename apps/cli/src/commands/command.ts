import type { FlagSpec } from "../args/flag-spec.ts";
import type { CliIo } from "../cli-io.ts";

/** One `climpt <name>` command. */
export interface Command {
  readonly name: string;
  /** One line for `climpt --help`. */
  readonly summary: string;
  /** The synopsis lines: `climpt graph <agent> [--format mermaid|dot]`. */
  readonly usage: readonly string[];
  readonly flags: readonly FlagSpec[];
  /** Paragraphs after the flag list in `climpt <name> --help`. */
  readonly details?: readonly string[];
  /** Exit code: 0 ok, 1 run failed, 2 usage / invalid agent. */
  run(argv: readonly string[], io: CliIo): Promise<number>;
}
