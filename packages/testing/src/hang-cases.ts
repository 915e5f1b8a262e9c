/**
 * The waits a model or an agent can make hang, scripted for the fake Messages API against the
 * agent `climpt init` scaffolds (initial.work → continuation.work → closure.done): a Write into a
 * FIFO, a Bash call whose `setsid` child keeps the output pipe open, a backtracking Grep, an
 * exploding Glob brace pattern, and a closure validator whose `matches:` check backtracks.
 *
 * Nothing but a stop (`--max-time`, Ctrl-C) may end them: the Bash call's own timeout is ten
 * minutes, the patterns backtrack for far longer than any test's time limit, and the request
 * after the last scripted reply is never answered. The CLI's end-to-end test and the `bounds`
 * section of `pnpm soak` share them.
 */
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type FakeReply, reply } from "@climpt/mock";

/** Forty `a`s and a `!`: `^(a+)+$` backtracks through 2^40 ways of splitting them. */
const BACKTRACKING_LINE = `${"a".repeat(40)}!`;
/** Forty `{a,a}` groups: the glob's alternatives backtrack through 2^40 combinations. */
const EXPLODING_GLOB = `${"{a,a}".repeat(40)}!`;
const BACKTRACKING_NAME = `${"a".repeat(40)}b`;

/** What a run shows while it waits, for `started`. */
export interface HangObservation {
  /** The project (the run's working directory). */
  readonly cwd: string;
  /** A folder of the test's own, outside the project. */
  readonly scratch: string;
  /** The run's `--jsonl` output so far. */
  readonly stdout: string;
  /** Model requests the fake has received. */
  readonly requests: number;
}

/** The scaffold's steps_registry.json, the parts a case changes. */
export interface ScaffoldRegistry {
  validators: Record<string, unknown>;
  validationSteps: Record<string, { validationConditions: unknown[] }>;
}

export interface HangCase {
  readonly id:
    | "fifo-write"
    | "bash-setsid"
    | "grep-backtrack"
    | "glob-braces"
    | "validator-matches";
  readonly name: string;
  /** The model's replies; the request after the last one must get `reply.hang()`. */
  replies(): FakeReply[];
  /** Adds what the tool waits on to the committed project. */
  prepare?(cwd: string): void;
  /** Changes the scaffolded registry (before the project is committed). */
  editRegistry?(registry: ScaffoldRegistry, scratch: string): void;
  /** True once the waiting tool or validator has started. */
  started(run: HangObservation): boolean;
}

const plan = reply.json({
  stepId: "initial.work",
  summary: "Planned.",
  plan: { approach: "Do it." },
  next_action: { action: "next", reason: "planned" },
});
const handoff = reply.json({
  stepId: "continuation.work",
  summary: "Done.",
  work: { description: "Nothing to change", files: [] },
  next_action: { action: "handoff", reason: "done" },
});
const closing = reply.json({
  stepId: "closure.done",
  summary: "Finished.",
  closure: { committed: true, report: "done" },
  next_action: { action: "closing", reason: "complete" },
});

export const HANG_CASES: readonly HangCase[] = [
  {
    id: "fifo-write",
    name: "a Write into a FIFO in the working directory",
    prepare: (cwd) => execFileSync("mkfifo", [path.join(cwd, "pipe")]),
    replies: () => [reply.toolUse({ name: "Write", input: { file_path: "pipe", content: "x" } })],
    // The Write must not wait for a reader: it is refused (a FIFO is not a regular file), and
    // the run then waits on the model's next answer, which never comes.
    started: ({ requests }) => requests >= 2,
  },
  {
    id: "bash-setsid",
    name: "a Bash call whose setsid child holds the output pipe",
    replies: () => [
      reply.toolUse({
        name: "Bash",
        input: { command: "touch bash-started; setsid sleep 1000 & sleep 1000", timeout: 600_000 },
      }),
    ],
    started: ({ cwd }) => existsSync(path.join(cwd, "bash-started")),
  },
  {
    id: "grep-backtrack",
    name: "a Grep whose pattern backtracks",
    prepare: (cwd) => writeFileSync(path.join(cwd, "long.txt"), `${BACKTRACKING_LINE}\n`),
    replies: () => [
      reply.toolUse({ name: "Grep", input: { pattern: "^(a+)+$", path: "long.txt" } }),
    ],
    started: ({ stdout }) => stdout.includes('"type":"tool_call"'),
  },
  {
    id: "glob-braces",
    name: "a Glob brace pattern that explodes",
    prepare: (cwd) => writeFileSync(path.join(cwd, BACKTRACKING_NAME), ""),
    replies: () => [reply.toolUse({ name: "Glob", input: { pattern: EXPLODING_GLOB } })],
    started: ({ stdout }) => stdout.includes('"type":"tool_call"'),
  },
  {
    id: "validator-matches",
    name: "a closure validator whose matches: check backtracks",
    editRegistry: (registry) => {
      // The marker goes into the working directory (its tmp/ is ignored by git): the validator
      // runs in the OS sandbox, which writes nowhere else.
      registry.validators.backtracks = {
        type: "command",
        command: `mkdir -p tmp && touch tmp/validator-started; printf '${BACKTRACKING_LINE}'`,
        successWhen: "matches:^(a+)+$",
        failurePattern: "git-dirty",
      };
      const closure = registry.validationSteps["closure.done"];
      if (closure === undefined) throw new Error("The scaffold has no closure validation step.");
      closure.validationConditions = [{ validator: "backtracks" }];
    },
    replies: () => [plan, handoff, closing],
    started: ({ cwd }) => existsSync(path.join(cwd, "tmp", "validator-started")),
  },
];

/**
 * What a tool or validator says when it ends by its own deadline: a run stopped by `--max-time`
 * or Ctrl-C must not hold it (the stop, not the deadline, ended the wait).
 */
export const OWN_DEADLINE_TEXT: RegExp =
  /took longer than|ran longer than|TOOL-PATTERN-001: the (pattern|glob)/;
