/**
 * What a failed validator's comparison with the merge base found (`ValidatorResult.baseline`).
 * `preExisting` and `introduced` are filled only when `status` is `compared`.
 */
export interface ValidatorBaseline {
  /**
   * `compared`: the command ran on the base too; `off`: the validator's `baseline` is off;
   * `unavailable`: the base could not be checked (`reason` says why), so every failure blocks.
   */
  readonly status: "compared" | "off" | "unavailable";
  readonly reason?: string;
  /** The commit the command ran on (the merge base). */
  readonly baseSha?: string;
  /** Failures the base has too: reported, not blocking, not in the retry prompt. */
  readonly preExisting: readonly string[];
  /** Failures the change introduced: only these block and go into the retry prompt. */
  readonly introduced: readonly string[];
}
