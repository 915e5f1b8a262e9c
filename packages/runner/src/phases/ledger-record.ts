/**
 * The completion ledger's record of one validation attempt (docs/design.md#the-completion-ledger):
 * built from the validators' results and the commit read before they ran, journaled as a
 * `ledger` event, kept by the event stream for `RunResult.ledger`.
 */
import { createHash } from "node:crypto";
import type { ValidationSummary } from "@climpt/completion-chain";
import type { SecretScrubber } from "@climpt/model";
import {
  LEDGER_TAIL_CHARS,
  type LedgerAttempt,
  type LedgerBaseline,
  type LedgerCommit,
  type LedgerEntry,
} from "@climpt/protocol";

/** One validator's result, as the completion chain reports it. */
type ValidatorResult = ValidationSummary["results"][number];

/**
 * The baseline comparison a validator result may carry (the validators package adds it); read
 * structurally, so the ledger carries it from the day the field exists.
 */
function baselineOf(result: ValidatorResult): LedgerBaseline | undefined {
  const baseline = (result as { readonly baseline?: LedgerBaseline }).baseline;
  if (baseline === undefined || baseline === null || typeof baseline !== "object") return undefined;
  return {
    status: baseline.status,
    ...(baseline.reason === undefined ? {} : { reason: baseline.reason }),
    ...(baseline.baseSha === undefined ? {} : { baseSha: baseline.baseSha }),
    preExisting: [...baseline.preExisting],
    introduced: [...baseline.introduced],
  };
}

/** One validator's line of the ledger; its command and output pass the run's scrubber. */
export function ledgerEntry(result: ValidatorResult, scrubber: SecretScrubber): LedgerEntry {
  // stdout and stderr are scrubbed where the validator captured them; scrubbed again here so
  // the ledger never depends on the caller having passed the run's scrubber down.
  const output = scrubber.scrub(`${result.stdout}${result.stderr}`);
  const baseline = baselineOf(result);
  return {
    validator: result.id,
    command: scrubber.scrub(result.command),
    passed: result.passed,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    extracted: scrubber.scrubJson(result.extracted),
    output: {
      sha256: `sha256:${createHash("sha256").update(output).digest("hex")}`,
      chars: output.length,
      tail: output.slice(-LEDGER_TAIL_CHARS),
    },
    ...(baseline === undefined ? {} : { baseline }),
  };
}

export interface LedgerAttemptInput {
  readonly iteration: number;
  readonly stepId: string;
  readonly attempt: number;
  readonly passed: boolean;
  readonly commit: LedgerCommit | null;
  readonly commitError?: string;
  readonly results: readonly ValidatorResult[];
}

/** The attempt as the `ledger` event stores it (the event stream adds the time). */
export function ledgerAttempt(
  input: LedgerAttemptInput,
  scrubber: SecretScrubber,
): Omit<LedgerAttempt, "time"> {
  return {
    iteration: input.iteration,
    stepId: input.stepId,
    attempt: input.attempt,
    passed: input.passed,
    commit: input.commit,
    ...(input.commitError === undefined ? {} : { commitError: input.commitError }),
    entries: input.results.map((result) => ledgerEntry(result, scrubber)),
  };
}
