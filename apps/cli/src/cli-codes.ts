/**
 * The codes of the usage errors the CLI itself reports (exit 2). They belong to the `AC-*` (agent /
 * run configuration) family (docs/design.md#errors); problems in an agent definition keep the codes
 * of the package that found them (`SR-*`, `PR-*`).
 */
export const CLI_CODES = {
  /**
   * `climpt frobnicate`: no such command. Example: `Unknown command "rnu".` Fix: `climpt --help`
   * lists the commands.
   */
  unknownCommand: "AC-CLI-001",
  /**
   * A flag neither the command nor the agent declares. Example: `Unknown flag --isue.` Fix: Use a
   * declared flag (the hint suggests the nearest).
   */
  unknownFlag: "AC-CLI-002",
  /**
   * A flag that takes a value was given none. Example: `--task needs a value.` Fix: Give the value.
   */
  missingValue: "AC-CLI-003",
  /**
   * A flag value of the wrong type (not a number, not a duration, not one of the choices). Example:
   * `--param issue expects a number, got "twelve".` Fix: Give a value of the flag's type.
   */
  badValue: "AC-CLI-004",
  // The fifth code (a missing agent parameter) is retired: parameters are checked once, by the
  // runner's validateArgs (RUN-ARGS-001…003), for every caller.
  /**
   * A missing or unexpected positional argument. Example: `climpt run needs <agent>.` Fix: Follow
   * the usage line in the hint.
   */
  badArgument: "AC-CLI-006",
  /**
   * A single-value flag (or parameter) given more than once. Example: `Parameter "issue" is given
   * more than once (--issue and --param).` Fix: Give it once.
   */
  repeatedFlag: "AC-CLI-007",
  /**
   * `--param` without `=`. Example: `--param expects NAME=VALUE, got "issue".` Fix: Write
   * `--param NAME=VALUE`.
   */
  badParam: "AC-CLI-008",
  /**
   * No model credentials and no cassette to replay. Example: `ANTHROPIC_API_KEY is not set, so
   * climpt cannot reach the model.` Fix: Set `ANTHROPIC_API_KEY`, or `--replay` a cassette.
   */
  noCredentials: "AC-CLI-009",
  /**
   * `climpt init` cannot write where it was asked to. Example: `.agent/demo already exists; init
   * never overwrites.` Fix: Choose another name or folder.
   */
  initTarget: "AC-CLI-010",
  /**
   * Flags that cannot be used together. Example: `A resumed run keeps the parameters it started
   * with; parameters cannot be given with --resume.` Fix: Drop one of them.
   */
  conflict: "AC-CLI-011",
  /**
   * A folder a flag names does not exist (`climpt list --agent-dir /nowhere`). Example:
   * `--agent-dir: no folder /nowhere.` Fix: Pass an existing folder, or leave the flag out for
   * <cwd>/.agent.
   */
  noFolder: "AC-CLI-012",
  /**
   * `climpt resume` / `show`: no journal holds this run id. Example: `No run "2026…-abc123" in the
   * journals of the 2 agents under /repo/.agent (runs started in /repo).` Fix: `climpt runs` lists
   * the runs; run from the folder the run started in, or give --agent.
   */
  noRun: "AC-CLI-013",
  /**
   * `--executor claude-code` (or agent.json's) without @climpt/claude-code installed. Example: `The
   * claude-code executor needs @climpt/claude-code, which is not installed.` Fix: Install
   * `@climpt/claude-code` next to climpt, or run with `--executor messages`.
   */
  executorMissing: "AC-CLI-014",
  /**
   * `climpt init --workflow issue-to-pr` found no test command in the repository (no package.json
   * test script, no Makefile test target, no pytest in pyproject.toml) and stdin is not a terminal
   * to ask on. Example: `No test command found in /repo: the implement agent's completion chain
   * needs one.` Fix: Pass it: `--test-command "npm test"` (and `--typecheck-command`,
   * `--lint-command` for the others).
   */
  noCheckCommand: "AC-CLI-015",
  /**
   * A command needs an optional package that a light install leaves out: `bullmq` and `ioredis`
   * for the fleet (`climpt worker`, `fleet status`, `orchestrate --queue`), `typescript-json-schema`
   * for `climpt schema from-ts`. Exit 2. Example: `climpt worker needs the packages bullmq and
   * ioredis, which are not installed (climpt leaves them out of a light install).` Fix: Run the
   * install command the hint names, e.g. `npm i -D bullmq ioredis`.
   */
  packagesMissing: "CLI-DEP-001",
  /**
   * `climpt` started from a checkout whose build is missing or was stopped half-way (a package's
   * `dist` has no build stamp); nothing runs, exit 1. Example: `climpt: AC-BUILD-001 the build of
   * climpt is missing (no …/dist/main.mjs).` Fix: Run `pnpm build` at the repository root.
   */
  incompleteBuild: "AC-BUILD-001",
  /**
   * An error escaped every command: a bug in climpt, not a failed run or a bad definition; exit 3,
   * the stack on stderr. Example: `CLI-INTERNAL-001 Cannot read properties of undefined (…)` Fix:
   * Report it with the command you ran and the stack.
   */
  internalError: "CLI-INTERNAL-001",
} as const;

export type CliCode = (typeof CLI_CODES)[keyof typeof CLI_CODES];
