import type { Problem } from "@climpt/model";
import type { ValidatorResult } from "@climpt/validators";
import type { RetrySource } from "./retry/build-retry-prompt.ts";
import type { ValidationSummary } from "./validation/validation-summary.ts";
import type { VerdictDecision } from "./verdict/types.ts";

/** What the chain reports while it works, for the journal and the progress display. */
export type ChainEvent =
  | {
      readonly type: "validation-started";
      readonly closureStepId: string;
      /** The validationSteps key that applies; absent when none does (no validators run). */
      readonly validationStepId?: string;
      readonly validators: readonly string[];
    }
  | {
      readonly type: "validator-finished";
      readonly index: number;
      readonly result: ValidatorResult;
    }
  | { readonly type: "validation-finished"; readonly validation: ValidationSummary }
  | {
      readonly type: "verdict-decided";
      readonly verdictType: string;
      readonly decision: VerdictDecision;
    }
  | {
      readonly type: "retry-prepared";
      readonly returnStepId: string;
      readonly attempt: number;
      readonly failurePattern?: string;
      readonly source: RetrySource;
    }
  | { readonly type: "chain-aborted"; readonly error: Problem };
