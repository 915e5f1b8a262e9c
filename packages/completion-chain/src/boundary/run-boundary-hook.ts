import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AgentDefinition,
  DEFAULT_VALIDATOR_TIMEOUT_MS,
  type JsonValue,
  type Problem,
  problem,
  runIssueArgument,
} from "@climpt/model";
import { COMPLETION_CODES } from "../codes.ts";
import {
  type CommandOutcome,
  type CommandRunner,
  createExecaCommandRunner,
} from "../command-runner.ts";
import { asRecord, type BoundaryRequest } from "./boundary-request.ts";
import { type HookCommandLauncher, runCommandHook } from "./command-hook.ts";
import {
  type GithubPlan,
  issueText,
  type PlannedIssueAction,
  type PlannedMerge,
  planGithubActions,
} from "./plan-github-actions.ts";

export interface RunBoundaryHookInput {
  readonly agent: AgentDefinition;
  readonly params: Readonly<Record<string, JsonValue | undefined>>;
  readonly closureOutput: JsonValue;
  readonly boundaryRequests?: readonly BoundaryRequest[] | undefined;
  /** Runs `gh` (and the command hook when there is no `launchCommand`); default on execa. */
  readonly commandRunner?: CommandRunner | undefined;
  /**
   * Where the command hook runs: the runner passes the OS sandbox (a closure step's `gh` rights,
   * the hook's declared `env`). Default: `sh -c` on the host, for an agent with the sandbox off.
   */
  readonly launchCommand?: HookCommandLauncher | undefined;
  /** The run's working directory: `gh` and the command hook run here. */
  readonly cwd: string;
  /**
   * The run's repository (lower-case `owner/repo`, fixed before the run's first step): an action
   * that names no repository acts there (`--repo`), not where gh would look in `cwd`. Absent: gh
   * picks in `cwd`.
   */
  readonly repository?: string | undefined;
  /** The hook acts at most once per run id. */
  readonly runId: string;
  /**
   * The run's proof of done (the completion ledger as markdown, with the command that re-checks
   * it): appended to the comment of every issue the hook closes, and given to the command hook
   * as `evidence` in its result JSON. Absent: closes carry only what a request asked for.
   */
  readonly evidence?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface BoundaryAction {
  /**
   * `label`: `gh issue edit` / `gh pr edit`; `close`: `gh issue close`; `merge`: `gh pr merge`;
   * `command`: the generic command hook.
   */
  readonly kind: "label" | "close" | "merge" | "command";
  /** The argv that ran, e.g. `["gh", "issue", "close", "12"]`. */
  readonly command: readonly string[];
  readonly issue?: string;
  readonly pullRequest?: string;
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly ok: boolean;
  readonly timedOut?: boolean;
}

export interface BoundaryHookResult {
  readonly ran: true;
  /** Every action succeeded and nothing stopped the hook from acting. */
  readonly ok: boolean;
  readonly actions: readonly BoundaryAction[];
  /** Why something was not done or failed, with codes (`AC-HOOK-*`). */
  readonly problems: readonly Problem[];
}

// One result per run id, for the life of the process: the hook's side effects (closing an
// issue, a deploy command) must never happen twice, even if a runner calls it again after a
// resume or a bug. Holding the promise also makes concurrent calls share one execution.
const hookRuns = new Map<string, Promise<BoundaryHookResult>>();

/**
 * The boundary hook (docs/design.md#the-boundary-hook): the only place side effects happen, after
 * the completion chain returned `done`. Runs the planned GitHub actions through `gh` (see
 * `planGithubActions`), then the agent's generic command hook (command-hook.ts: in the OS sandbox
 * when the caller passes `launchCommand`), then what that command's `gh` calls recorded (its
 * closes and merges, on the run's own issue and pull request). Acts at most once per `runId`:
 * a second call returns the first call's result without acting. A failure is reported with its
 * output (`ok: false`), never thrown or swallowed.
 */
export function runBoundaryHook(input: RunBoundaryHookInput): Promise<BoundaryHookResult> {
  const existing = hookRuns.get(input.runId);
  if (existing !== undefined) return existing;
  const run = executeBoundaryHook(input);
  hookRuns.set(input.runId, run);
  return run;
}

async function executeBoundaryHook(input: RunBoundaryHookInput): Promise<BoundaryHookResult> {
  const runner = input.commandRunner ?? createExecaCommandRunner();
  const plan = planGithubActions({
    agent: input.agent,
    params: input.params,
    closureOutput: input.closureOutput,
    boundaryRequests: input.boundaryRequests,
  });
  const problems: Problem[] = [...plan.problems];
  const actions: BoundaryAction[] = [];
  const record = async (
    kind: BoundaryAction["kind"],
    argv: readonly string[],
    about: { issue?: string; pullRequest?: string },
    execute: () => Promise<CommandOutcome>,
  ): Promise<BoundaryAction> => {
    let outcome: CommandOutcome;
    try {
      outcome = await execute();
    } catch (error) {
      // A CommandRunner that throws is reported like a command that could not start.
      outcome = {
        exitCode: 1,
        stdout: "",
        stderr: error instanceof Error ? error.message : String(error),
      };
    }
    const action: BoundaryAction = {
      kind,
      command: argv,
      ...(about.issue === undefined ? {} : { issue: about.issue }),
      ...(about.pullRequest === undefined ? {} : { pullRequest: about.pullRequest }),
      exitCode: outcome.exitCode,
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      ok: outcome.exitCode === 0 && outcome.timedOut !== true,
      ...(outcome.timedOut === true ? { timedOut: true } : {}),
    };
    actions.push(action);
    if (!action.ok) problems.push(commandFailed(action));
    return action;
  };
  const gh = (
    kind: BoundaryAction["kind"],
    argv: readonly string[],
    about: { issue?: string; pullRequest?: string },
  ): Promise<BoundaryAction> => {
    const [program, ...args] = argv as [string, ...string[]];
    return record(kind, argv, about, () =>
      runner(program, args, {
        cwd: input.cwd,
        ...(input.signal === undefined ? {} : { signal: input.signal }),
      }),
    );
  };
  // Merges first, each followed by its label changes (skipped when the merge failed), then the
  // issue actions: a run that merges its pull request and closes its issue does both in order.
  const perform = async (planned: GithubPlan): Promise<void> => {
    for (const merge of planned.merges) {
      for (const argv of mergeCommands(merge, input.repository)) {
        const kind = argv[2] === "merge" ? "merge" : "label";
        const done = await gh(kind, argv, { pullRequest: merge.pullRequest });
        if (!done.ok) break;
      }
    }
    for (const issueAction of planned.actions) {
      const withEvidence =
        input.evidence === undefined || issueAction.action === "label-only"
          ? issueAction
          : {
              ...issueAction,
              comment:
                issueAction.comment === undefined
                  ? input.evidence
                  : `${issueAction.comment}\n\n${input.evidence}`,
            };
      for (const argv of githubCommands(withEvidence, input.repository)) {
        const kind = argv[2] === "close" ? "close" : "label";
        const done = await gh(kind, argv, { issue: issueAction.issue });
        // Do not close an issue whose labels could not be set: the two are one action.
        if (!done.ok) break;
      }
    }
  };
  await perform(plan);

  const hook = input.agent.boundaryHook;
  if (hook !== undefined) {
    const folder = await mkdtemp(join(tmpdir(), "climpt-hook-"));
    try {
      const resultFile = join(folder, "result.json");
      const issue =
        plan.actions[0]?.issue ??
        issueText(asRecord(asRecord(input.closureOutput)?.issue)?.number) ??
        issueText(runIssueArgument(input.agent, input.params)) ??
        "";
      const payload = {
        runId: input.runId,
        agent: input.agent.name,
        issue: issue === "" ? null : issue,
        params: input.params,
        closureOutput: input.closureOutput,
        boundaryRequests: input.boundaryRequests ?? [],
        githubActions: actions,
        evidence: input.evidence ?? null,
      };
      await writeFile(resultFile, `${JSON.stringify(payload, null, 2)}\n`, "utf8");
      let recorded: readonly BoundaryRequest[] = [];
      const ran = await record("command", ["sh", "-c", hook.command], {}, async () => {
        const hookRun = await runCommandHook(hook, {
          cwd: input.cwd,
          env: {
            CLIMPT_RUN_ID: input.runId,
            CLIMPT_AGENT: input.agent.name,
            CLIMPT_ISSUE: issue,
            CLIMPT_RESULT_JSON: resultFile,
          },
          timeoutMs: hook.timeoutMs ?? DEFAULT_VALIDATOR_TIMEOUT_MS,
          signal: input.signal,
          runner,
          launch: input.launchCommand,
        });
        recorded = hookRun.boundaryRequests;
        return hookRun.outcome;
      });
      // What the command's own `gh` asked to close or merge (recorded by the broker, as a
      // closure step's is), performed once it succeeded: the run's own issue and PR only.
      if (ran.ok && recorded.length > 0) {
        const own = planGithubActions({
          agent: input.agent,
          params: input.params,
          closureOutput: input.closureOutput,
          boundaryRequests: recorded,
          requestsOnly: true,
        });
        problems.push(...own.problems);
        await perform(own);
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  return { ran: true, ok: problems.length === 0, actions, problems };
}

/**
 * The `gh` argv lists one planned issue action turns into, in order; `--repo` is the action's
 * repository, else the run's when given.
 */
export function githubCommands(planned: PlannedIssueAction, runRepository?: string): string[][] {
  const commands: string[][] = [];
  const labels = [
    ...planned.addLabels.flatMap((label) => ["--add-label", label]),
    ...planned.removeLabels.flatMap((label) => ["--remove-label", label]),
  ];
  const repository = planned.repository ?? runRepository;
  const repo = repository === undefined ? [] : ["--repo", repository];
  if (planned.action !== "close" && labels.length > 0) {
    commands.push(["gh", "issue", "edit", planned.issue, ...repo, ...labels]);
  }
  if (planned.action !== "label-only") {
    commands.push([
      "gh",
      "issue",
      "close",
      planned.issue,
      ...repo,
      ...(planned.comment === undefined ? [] : ["--comment", planned.comment]),
      ...(planned.reason === undefined ? [] : ["--reason", planned.reason]),
    ]);
  }
  return commands;
}

/** The `gh` argv lists of one planned merge: the merge, then its label changes. */
export function mergeCommands(merge: PlannedMerge, runRepository?: string): string[][] {
  const repository = merge.repository ?? runRepository;
  const repo = repository === undefined ? [] : ["--repo", repository];
  const commands = [
    [
      "gh",
      "pr",
      "merge",
      merge.pullRequest,
      ...repo,
      `--${merge.method}`,
      ...(merge.deleteBranch ? ["--delete-branch"] : []),
    ],
  ];
  const labels = [
    ...merge.addLabels.flatMap((label) => ["--add-label", label]),
    ...merge.removeLabels.flatMap((label) => ["--remove-label", label]),
  ];
  if (labels.length > 0) commands.push(["gh", "pr", "edit", merge.pullRequest, ...repo, ...labels]);
  return commands;
}

function commandFailed(action: BoundaryAction): Problem {
  const what =
    action.kind === "command"
      ? "The boundary command hook"
      : `\`${action.command.slice(0, 3).join(" ")}\``;
  const about =
    action.issue !== undefined
      ? ` for issue #${action.issue}`
      : action.pullRequest !== undefined
        ? ` for pull request #${action.pullRequest}`
        : "";
  const why = action.timedOut === true ? "timed out" : `exited ${action.exitCode}`;
  const output = `${action.stderr}\n${action.stdout}`.trim().slice(0, 500);
  return problem(
    COMPLETION_CODES.hookCommandFailed,
    `${what}${about} ${why}${output === "" ? "." : `: ${output}`}`,
    {
      hint:
        action.kind === "command"
          ? "Fix the command in agent.json (boundaryHook.command); it runs once, after validated completion."
          : "Check that gh is installed and authenticated (gh auth status) and that the issue or pull request exists (and, for a merge, can be merged).",
    },
  );
}
