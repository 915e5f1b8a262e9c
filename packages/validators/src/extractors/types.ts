import type { JsonValue } from "@climpt/model";

/** What an extractor sees: the validator's finished command and where it ran. */
export interface ExtractorInput {
  /** Captured stdout (capped; see `ValidatorResult.truncated`). */
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  /** The run's working directory; absolute paths inside it are reported relative to it. */
  readonly cwd: string;
  /** The command as run; lets an extractor tell `prettier --list-different` from other output. */
  readonly command?: string;
  /** The environment the command ran with (generateDiff runs git with it). */
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

/** Turns a command's output into one param value. Total: never throws on odd output. */
export type Extractor = (input: ExtractorInput) => JsonValue | Promise<JsonValue>;
