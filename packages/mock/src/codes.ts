/**
 * Every code this package puts in a returned `Problem` or in a reply it serves: the `AC-MOCK-*`
 * codes, a mock script as `climpt mock` and `climpt run --mock` read and serve it (an `AC` code:
 * the script is part of how a run is set up, docs/design.md#errors). The README lists them.
 */
export const MOCK_CODES = {
  /**
   * The mock script cannot be read, or is not JSON. Example: `mock.json is not valid JSON:
   * Unexpected token } in JSON at position 120.` Fix: Fix the file (an editor that checks JSON
   * shows where), or pass the right path.
   */
  unreadable: "AC-MOCK-001",
  /**
   * An entry of the mock script has the wrong shape: a missing or unknown key, a value of the
   * wrong type, a regular expression that does not compile. Example: `$.rules[1].turns[0]: a turn
   * needs exactly one of output, text, toolCalls or error; it has none.` Fix: Change the entry
   * at that JSON path as the hint says; the @climpt/mock README shows every key.
   */
  badScript: "AC-MOCK-002",
  /**
   * A model request that no rule of the script answers; the mock replies with a 400 error whose
   * message is this problem, so the run fails on that step with the text below. Example: `No
   * rule of mock.json answers step "continuation.work", turn 0 (prompt "# Step: do the work…").
   * The closest rule is $.rules[1] (step "continuation.wrk"): its step differs.` Fix: Add a rule
   * for that step (or prompt), or correct the closest rule as the message says.
   */
  noMatch: "AC-MOCK-003",
  /**
   * `climpt mock` cannot listen on the port it was given (in use, or not allowed). Example:
   * `Cannot serve on 127.0.0.1:8787: listen EADDRINUSE: address already in use 127.0.0.1:8787.`
   * Fix: Choose another --port, or --port 0 for a free one.
   */
  cannotListen: "AC-MOCK-004",
  /**
   * A warning before a run with `--mock`: a rule names a step the agent does not have, so it
   * can never answer (a typo, or a step renamed since). Example: `$.rules[2] names step
   * "closure.don", which my-agent does not have; did you mean "closure.done"?` Fix: Correct the
   * step id, or remove the rule.
   */
  unknownStep: "AC-MOCK-005",
} as const;

export type MockCode = (typeof MOCK_CODES)[keyof typeof MOCK_CODES];
