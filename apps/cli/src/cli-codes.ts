/**
 * The codes of the usage errors the CLI itself reports (exit 2). They belong to the `AC-*` (agent /
 * run configuration) family (docs/design.md#errors); problems in an agent definition keep the codes
 * of the package that found them (`SR-*`, `PR-*`).
 */
export const CLI_CODES = {
  /** `climpt frobnicate`: no such command. */
  unknownCommand: "AC-CLI-001",
  /** A flag neither the command nor the agent declares. */
  unknownFlag: "AC-CLI-002",
  /** A flag that takes a value was given none. */
  missingValue: "AC-CLI-003",
  /** A flag value of the wrong type (not a number, not a duration, not one of the choices). */
  badValue: "AC-CLI-004",
  // AC-CLI-005 (a missing agent parameter) is retired: parameters are checked once, by the
  // runner's validateArgs (RUN-ARGS-001…003), for every caller.
  /** A missing or unexpected positional argument. */
  badArgument: "AC-CLI-006",
  /** A single-value flag (or parameter) given more than once. */
  repeatedFlag: "AC-CLI-007",
  /** `--param` without `=`. */
  badParam: "AC-CLI-008",
  /** No model credentials and no cassette to replay. */
  noCredentials: "AC-CLI-009",
  /** `climpt init` cannot write where it was asked to. */
  initTarget: "AC-CLI-010",
  /** Flags that cannot be used together. */
  conflict: "AC-CLI-011",
  /** A folder a flag names does not exist (`climpt list --agent-dir /nowhere`). */
  noFolder: "AC-CLI-012",
  /** `climpt resume` / `show`: no journal holds this run id. */
  noRun: "AC-CLI-013",
  /** `--executor claude-code` (or agent.json's) without @climpt/claude-code installed. */
  executorMissing: "AC-CLI-014",
} as const;

export type CliCode = (typeof CLI_CODES)[keyof typeof CLI_CODES];
