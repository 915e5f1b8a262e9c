import type { JsonValue } from "@climpt/model";

/**
 * The completion ledger (docs/design.md#the-completion-ledger): for every validation attempt,
 * what each validator ran, how it ended, what its extractors found and a fingerprint of its
 * output, tied to the commit it ran against. The journal holds one `ledger` event per attempt;
 * `RunResult.ledger`, `climpt show`, the viewer, the pull request body and `climpt verify` read
 * these attempts.
 */

/** The commit a validation attempt ran against, read through @climpt/host-git. */
export interface LedgerCommit {
  /** `HEAD` of the working tree the validators ran in. */
  readonly sha: string;
  /** The tree of that commit (`HEAD^{tree}`): two commits with one tree hold the same files. */
  readonly tree: string;
  /**
   * The working tree matched the commit (`git status --porcelain` printed nothing): only then
   * does the verdict speak for the commit alone, not for uncommitted changes beside it.
   */
  readonly clean: boolean;
  /** The branch checked out there, or null on a detached HEAD. */
  readonly branch: string | null;
}

/**
 * Whether a failing validator's findings were compared with the merge base, and what that
 * found (the validators package fills `ValidatorResult.baseline`; the ledger carries it).
 */
export interface LedgerBaseline {
  readonly status: "compared" | "off" | "unavailable";
  readonly reason?: string;
  readonly baseSha?: string;
  readonly preExisting: readonly string[];
  readonly introduced: readonly string[];
}

/** The validator's output, kept small: a digest of all of it and its last few KB. */
export interface LedgerOutput {
  /** `sha256:<hex>` of the scrubbed stdout followed by the scrubbed stderr, as captured. */
  readonly sha256: string;
  /** Characters of that text. */
  readonly chars: number;
  /** Its last `LEDGER_TAIL_CHARS` characters (scrubbed). */
  readonly tail: string;
}

/** One validator of one attempt. */
export interface LedgerEntry {
  readonly validator: string;
  /** The command as run (placeholders filled, scrubbed). */
  readonly command: string;
  readonly passed: boolean;
  /** null when the command did not run or was killed. */
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** What the validator's extractors found (failing tests, type errors, lint errors, files). */
  readonly extracted: Readonly<Record<string, JsonValue>>;
  readonly output: LedgerOutput;
  /** Present when the validator compared its failures with the merge base. */
  readonly baseline?: LedgerBaseline;
}

/** One validation attempt: every validator the closure step's validation entry names. */
export interface LedgerAttempt {
  readonly iteration: number;
  /** The closure step whose completion ran the validators. */
  readonly stepId: string;
  /** 1 for the first attempt of that closure step, 2 after one refusal, … */
  readonly attempt: number;
  /** ISO time the attempt was recorded. */
  readonly time: string;
  /** Every validator passed (or failures were skipped by `onFailure: skip`). */
  readonly passed: boolean;
  /** null outside a git repository, or when git could not be read (`commitError` says why). */
  readonly commit: LedgerCommit | null;
  readonly commitError?: string;
  readonly entries: readonly LedgerEntry[];
}

/** How much of a validator's output the ledger keeps. */
export const LEDGER_TAIL_CHARS = 4096;
