import type { FlagSpec } from "../args/flag-spec.ts";
import { AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG, JSON_FLAG } from "./common-flags.ts";

/** The flags of `climpt run` itself; an agent's parameter flags are added once it is loaded. */
export const RUN_FLAGS: readonly FlagSpec[] = [
  AGENT_DIR_FLAG,
  {
    ...CWD_FLAG,
    description: "Where the agent works: tools, validators, journal (default: here).",
  },
  {
    name: "param",
    kind: "string",
    key: "param",
    repeatable: true,
    valueName: "NAME=VALUE",
    description: "Set an agent parameter by name (repeatable); the same as its own flag.",
  },
  {
    name: "model",
    kind: "string",
    key: "model",
    valueName: "ID|ALIAS",
    description: "Model for steps that name none: opus, sonnet, haiku or a full model id.",
  },
  {
    name: "executor",
    kind: "choice",
    key: "executor",
    choices: ["messages", "claude-code"],
    description:
      "What runs each model step: climpt's tool loop (messages) or Claude Code; overrides agent.json's runner.flow.executor.",
  },
  {
    name: "max-iterations",
    kind: "integer",
    key: "maxIterations",
    valueName: "N",
    min: 1,
    description:
      "Run-wide iteration cap (default: the agent's, else 100); reached, the run goes to its onBudget step.",
  },
  {
    name: "max-tokens",
    kind: "integer",
    key: "maxTokens",
    valueName: "N",
    min: 1,
    description:
      "Budget: input + output tokens of the run; reached, the run goes to its onBudget step, else stops.",
  },
  {
    name: "max-cost",
    kind: "number",
    key: "maxCost",
    valueName: "USD",
    positive: true,
    description:
      "Budget: the run's cost in USD; reached, the run goes to its onBudget step, else stops.",
  },
  {
    name: "max-time",
    kind: "duration",
    key: "maxTime",
    valueName: "DURATION",
    min: 1,
    description: "Stop after this much wall-clock time: 90s, 15m, 1h30m.",
  },
  {
    name: "connect-timeout",
    kind: "duration",
    key: "connectTimeout",
    valueName: "DURATION",
    min: 1,
    description:
      "How long each model call may wait for its response to start (default: $CLIMPT_CONNECT_TIMEOUT, else agent.json limits.connectTimeoutMs, else 60s).",
  },
  {
    name: "stream-idle-timeout",
    kind: "duration",
    key: "streamIdleTimeout",
    valueName: "DURATION",
    min: 1,
    description:
      "The longest silence allowed in a model call's streamed response (default: $CLIMPT_STREAM_IDLE_TIMEOUT, else agent.json limits.streamIdleTimeoutMs, else 3m).",
  },
  {
    name: "worktree",
    kind: "boolean",
    key: "worktree",
    negatable: true,
    description: "Run in a fresh git worktree on its own branch (overrides agent.json).",
  },
  {
    name: "branch",
    kind: "string",
    key: "branch",
    valueName: "NAME",
    description:
      "Worktree mode: the run's branch (default climpt/<agent>/<run id>; an existing one is checked out).",
  },
  {
    name: "base-branch",
    kind: "string",
    key: "baseBranch",
    valueName: "NAME",
    description:
      "Worktree mode: the branch to start from and merge back into (default: the current branch).",
  },
  {
    name: "merge",
    kind: "boolean",
    key: "merge",
    negatable: true,
    description:
      "Worktree mode: after a successful run merge the branch into the base branch (default; --no-merge keeps it apart).",
  },
  {
    name: "push",
    kind: "boolean",
    key: "push",
    description:
      "Worktree mode: push after a successful run (the base branch after a merge, else the run's branch).",
  },
  {
    name: "push-remote",
    kind: "string",
    key: "pushRemote",
    valueName: "NAME",
    description: "The remote --push and --create-pr push to (default origin).",
  },
  {
    name: "create-pr",
    kind: "boolean",
    key: "createPr",
    description:
      "Worktree mode: push the branch and open a pull request (gh pr create) instead of merging.",
  },
  {
    name: "pr-target",
    kind: "string",
    key: "prTarget",
    valueName: "BRANCH",
    description: "The pull request's base branch (default: the base branch).",
  },
  JSON_FLAG,
  {
    name: "jsonl",
    kind: "boolean",
    key: "jsonl",
    description: "Print every run event as one JSON line on stdout as it happens.",
  },
  {
    name: "verbose",
    kind: "boolean",
    key: "verbose",
    description: "Show each step's resolved prompt and the model's text (stderr).",
  },
  {
    name: "mock",
    kind: "string",
    key: "mock",
    valueName: "SCRIPT",
    description:
      "Answer model calls from a mock script (@climpt/mock), served on 127.0.0.1 for this run: offline, no API key needed.",
  },
  {
    name: "replay",
    kind: "string",
    key: "replay",
    valueName: "CASSETTE",
    description: "Serve model calls from a recorded cassette (offline, no API key needed).",
  },
  {
    name: "record",
    kind: "string",
    key: "record",
    valueName: "CASSETTE",
    description: "Record every model call to a cassette file.",
  },
  {
    name: "resume",
    kind: "string",
    key: "resume",
    valueName: "RUN_ID",
    description:
      "Continue an interrupted or failed run from its journal (the same as `climpt resume RUN_ID`).",
  },
  HELP_FLAG,
];
