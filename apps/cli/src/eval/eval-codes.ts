/**
 * The codes of `climpt eval`'s own errors: a suite file it cannot use (exit 2). They belong to the
 * CLI's `AC-*` family, in a range of their own. A case that fails its expectations is not an
 * error of this kind: it is the suite's result (exit 1).
 */
export const EVAL_CODES = {
  /**
   * The suite file cannot be read or is not JSON. Example: `The suite /repo/eval.json is not JSON:
   * Unexpected token } in JSON at position 12.` Fix: Pass the suite's JSON file (the CLI README's
   * `climpt eval` section shows one).
   */
  unreadable: "AC-EVAL-001",
  /**
   * A field of the suite is missing, of the wrong type, or not one a suite has (the published
   * eval-suite.schema.json lists them). Example: `$.cases[1].expect.steps must be an array of
   * step ids.` Fix: As the hint says, at the JSON path named.
   */
  badField: "AC-EVAL-002",
  /**
   * A path a case names (agent, cassette, repo) does not exist. Example: `$.cases[0].cassette:
   * no file /repo/examples/cassettes/fix-bugg.jsonl.` Fix: Paths are relative to the suite file;
   * record the cassette with `climpt run … --record`.
   */
  missingPath: "AC-EVAL-003",
} as const;
