/**
 * Every code the runner reports on its own: the run-level names of docs/design.md#errors it ends a
 * run with, and the `RUN-*` family (its bookkeeping: arguments, working folder, sandbox, journal,
 * resume, worktrees). Codes it passes on from other packages keep those packages' tables. The
 * README lists them; docs/codes.md (generated from every package's table) catalogues them all.
 */
export const RUNNER_CODES = {
  /**
   * The run's signal was aborted (SIGINT / SIGTERM in the CLI). Resumable. Example: `The run was
   * interrupted (signal). Its journal is complete up to the last finished step.` Fix: `climpt run
   * <agent> --resume <run id>`.
   */
  interrupted: "AGENT_INTERRUPTED",
  /**
   * A token, cost or wall-clock budget ran out. Resumable. Example: `The wall-clock budget of
   * 600000 ms ran out.` Fix: Raise the budget and resume.
   */
  budgetExceeded: "AGENT_BUDGET_EXCEEDED",
  /**
   * The boundary hook ran, but the verdict (`poll:state`) is still not met afterwards. Example:
   * `The boundary hook ran, but the verdict is not met afterwards: issue #12 is OPEN, not CLOSED`
   * Fix: Check the hook's result (`AC-HOOK-*`) and the state.
   */
  verdictUnconfirmed: "AGENT_VERDICT_UNCONFIRMED",
  /**
   * A step failed for a reason that has no code of its own. Example: the underlying error's message
   * Fix: Read the message and the journal; report it if it looks like a bug.
   */
  stepFailed: "AGENT_STEP_FAILED",
  /**
   * A step failed twice in a row to produce output that matches its schema (after salvage and the
   * repair turn). The run's error has the last failure's code (`AC-STEP-001` no JSON, `AC-STEP-002`
   * JSON that does not match) and this family. Example: `Step "initial.issue" failed to produce
   * output matching its schema twice in a row. Last: …` Fix: Make the prompt and the output schema
   * agree; the `step_failed` events in the journal hold each attempt's errors.
   */
  schemaResolution: "FAILED_SCHEMA_RESOLUTION",
  /**
   * A step's structured output has no intent on an iteration after the first (the family of
   * `SR-INTENT-007`); the step the run is at does not exist (runner); the router was called out of
   * order (a runner bug). Other routing failures end the run with the router's own code
   * (`SR-TRANS-*`, `SR-INTENT-*`). Example: `Step "continuation.issue" returned no intent at
   * "next_action.action" on iteration 4; the run stops instead of guessing where to go
   * (fail-fast).` (code `SR-INTENT-007`, family `FAILED_STEP_ROUTING`) Fix: Make the intent field
   * required in the step's output schema and name its values in the prompt; otherwise resume with
   * the registry the run started with, or report the bug.
   */
  stepRouting: "FAILED_STEP_ROUTING",
  /**
   * A step chose `abort`: the run ends as a failure, never as success. Example: `Step
   * "initial.issue" chose abort: the issue is a duplicate.` Fix: Read the reason; the agent decided
   * it cannot go on.
   */
  aborted: "AGENT_ABORTED",
  /**
   * An `AgentDefinitionError` was raised without any problem: a bug, not a mistake in the agent.
   * Example: `The agent definition has 0 error(s) and 0 warning(s).` Fix: Report it with the
   * command that produced it.
   */
  emptyDefinitionError: "SR-LOAD-000",
  /**
   * A budget was reached (the run's tokens, cost or iteration cap, or a step's own `limits`) and
   * the run ended through the registry's `onBudget` step, which said `closing`: what it did (a
   * comment, a label) is done; the completion chain and the boundary hook did not run. Family
   * `AGENT_BUDGET_EXCEEDED`; resumable with a larger budget. Example: `The run reached its cost
   * budget ($0.0312 spent, budget $0.03) and ended through its onBudget step "closure.budget".`
   * Fix: Read what the onBudget step reported; raise the budget and resume to go on working.
   */
  budgetClosed: "RUN-BUDGET-001",
  /**
   * The `onBudget` step a budget sent the run to did not say `closing` in its one execution (it
   * asked to repeat, to go elsewhere, or gave no usable output): the run ends there. Family
   * `AGENT_BUDGET_EXCEEDED`. Example: `The onBudget step "closure.budget" did not close (it went
   * to "closure.budget"); it has one execution after a budget is reached.` Fix: Make the
   * onBudget step's prompt end with `closing`.
   */
  budgetStepDidNotClose: "RUN-BUDGET-002",
  /**
   * An argument names no parameter of the agent (programmatic `run`; the CLI reports `AC-CLI-002` /
   * `-008` first). Example: `Agent "fix-bug" has no parameter "isue".` Fix: Use a declared
   * parameter.
   */
  unknownArgument: "RUN-ARGS-001",
  /**
   * An argument is not of its parameter's type. Example: `Parameter "issue" (--issue) must be a
   * number; got "twelve".` Fix: Pass a value of the declared type.
   */
  badArgumentType: "RUN-ARGS-002",
  /**
   * A required parameter is missing (for every caller, the CLI included). Example: `Agent "fix-bug"
   * needs parameter "issue" (--issue): Issue number.` Fix: Pass it.
   */
  missingArgument: "RUN-ARGS-003",
  /**
   * The working directory does not exist or is not a folder; nothing is created. Example: `The
   * working directory /tmp/x does not exist or is not a folder.` Fix: Pass `--cwd` an existing
   * folder (the repository the agent works on).
   */
  noWorkingDirectory: "RUN-CWD-001",
  /**
   * A validator a closure step runs calls git, but the working folder is not inside a git
   * repository, so it could never pass (git exits 128). An error for `climpt run` (nothing runs), a
   * *warning* for `climpt validate`. Example: `Validator "git-clean" runs git (\`git status
   * --porcelain\`), but /tmp/work is not inside a git repository, so it could never pass.` Fix: Run
   * in a git repository (`git init`, commit the agent folder), pass `--cwd` the repository, or drop
   * the validator.
   */
  notAGitRepository: "RUN-CWD-002",
  /**
   * *Warning.* The agent folder, inside the repository the run works in, has uncommitted files, and
   * a validator that runs git would see them (the run would be refused at its close-out for files
   * the model did not write). A freshly scaffolded agent is the usual case. Example: `The agent
   * folder /repo/.agent/fix has uncommitted files, and validator "git-clean" (\`git status
   * --porcelain\`) would see them: …` Fix: Commit the agent folder.
   */
  uncommittedAgentFiles: "RUN-CWD-003",
  /**
   * *Warning.* The repository the run works in has untracked files outside the agent folder, and
   * a validator that runs `git status` would see them: the run would be refused at its close-out
   * for files the model did not write. A dependency or build folder (`node_modules/`, `dist/`,
   * `.venv/`, …) in a repository without a .gitignore is the usual case. Example: `Validator
   * "git-clean" (\`git status --porcelain\`) would see 2 untracked paths in /repo that are not the
   * model's work: node_modules/ (a dependency or build folder), notes.txt.` Fix: Add the
   * dependency and build folders to .gitignore and commit it; commit or ignore the rest.
   */
  untrackedRepositoryFiles: "RUN-CWD-004",
  /**
   * The sandbox is required, something would run in it — a step that can run Bash (with climpt's
   * own tools), a validator a closure step runs, a program (`runner.command`) step, the command
   * boundary hook (`boundaryHook`) — and the sandbox cannot start here. An error before the first
   * model call of `climpt run`; a *warning* from `climpt validate`, which runs nothing. A program
   * step whose sandbox fails to start later (a probe that timed out under load) ends the run with
   * it too. Example: `Step(s) "initial.issue" can run Bash; validator(s) "tests" run commands,
   * which run only inside the OS sandbox, and the sandbox cannot start here: bubblewrap (bwrap) not
   * installed.` Fix: Install `bubblewrap socat ripgrep`, allow unprivileged user namespaces
   * (`sysctl -w kernel.unprivileged_userns_clone=1`; Ubuntu 24.04+:
   * `kernel.apparmor_restrict_unprivileged_userns=0`), or set the sandbox `"off"`.
   */
  sandboxRequired: "RUN-SANDBOX-001",
  /**
   * *Warning* (a `notice` in a run's journal; reported by `climpt validate` too): the agent set the
   * sandbox `"off"`; model-issued commands, validators, program steps and the command boundary hook
   * run unsandboxed. Example: `The agent sets the OS sandbox "off": model-issued commands,
   * validators, program steps and the command boundary hook run unsandboxed, …` Fix: Remove the
   * setting to run them in the sandbox.
   */
  sandboxOff: "RUN-SANDBOX-002",
  /**
   * The git metadata a run recorded at its start (the working tree's `.git`, the git directory's
   * `commondir`, `gitdir`, `config.worktree`; in worktree mode the repository's too) changed during
   * the run, outside the sandbox. The run ends before any more git runs; resumable once the files
   * are restored (resume refuses with the same code until then). Example: `The git metadata of the
   * run's repository changed during the run, so no more git runs there: the commondir file at
   * /repo/.git/commondir was absent, now "/tmp/evil".` Fix: Find what changed it (a program step or
   * validator run unsandboxed, `sandbox: "off"`, another process), restore the file, `git fsck`,
   * then resume.
   */
  gitMetadataChanged: "RUN-GIT-001",
  /**
   * The journal cannot be read: missing (wrong run id or logging directory), not a regular file (a
   * FIFO or device, refused without waiting), or larger than 512 MiB. Example: `Cannot read the
   * journal …/run.jsonl: it does not exist.` Fix: Check the run id and the agent's logging
   * directory; a journal is a regular file the runner appends to.
   */
  journalUnreadable: "RUN-JOURNAL-001",
  /**
   * A journal line other than the last is not an event: not JSON, not an object, without a `type`,
   * or a `run_start`, `step_end`, `model_response`, `step_failed` or `run_end` without the fields
   * readers rely on (edited or corrupted; a last line that is not JSON is what a crash leaves and
   * is dropped). `climpt show` and `climpt runs` leave it out with a warning and show the rest;
   * `climpt resume` refuses. Example: `Line 7 of the journal …/run.jsonl is not valid JSON.` Fix:
   * Restore the journal, or start a new run.
   */
  journalLineBroken: "RUN-JOURNAL-002",
  /**
   * A run id that is not a journal file name. Example: `"../x" is not a run id.` Fix: Use the run
   * id a run printed.
   */
  badRunId: "RUN-JOURNAL-003",
  /**
   * A journal line nests values more than 1 000 levels deep or is longer than 32 MiB: the runner
   * never writes one. It is refused before it is parsed (every reader after the parse is
   * recursive); `climpt show`, `climpt runs` and `climpt view` leave it out with a warning naming
   * the line and show the rest, `climpt resume` and the orchestrator refuse with this code.
   * Example: `Line 16 of the journal …/run.jsonl nests values more than 1000 levels deep; it is not
   * read.` Fix: Remove the line, or start a new run.
   */
  journalLineTooLarge: "RUN-JOURNAL-004",
  /**
   * A program closure step's `${context.<key>}` argument has no value in the run's arguments; the
   * program does not start. Fix: Pass the argument the program step names (`--<key>` / `args`), or
   * drop the placeholder from the step's `args`.
   */
  programArgumentMissing: "RUN-PROGRAM-001",
  /**
   * A program closure step exited non-zero (or timed out) and the iteration cap leaves no iteration
   * to run it again; the message carries its exit and output. Fix: Read the program's output in the
   * message; fix what it reports, or raise the iteration cap so the flow can run it again.
   */
  programFailed: "RUN-PROGRAM-002",
  /**
   * The journal has no `run_start`, so there is nothing to resume. Example: `The journal
   * …/run.jsonl has no run_start event, so there is nothing to resume.` Fix: Start a new run.
   */
  resumeNoRunStart: "RUN-RESUME-001",
  /**
   * The run's worktree is gone. Example: `The run's worktree /repo/.worktrees/run-1 no longer
   * exists.` Fix: Recreate it with `git worktree add`, or start a new run.
   */
  resumeWorktreeGone: "RUN-RESUME-002",
  /**
   * The run already ran its boundary hook, or stopped while it was running; resuming could act
   * twice. Example: `Run 2026-01-01T00-00-00-abc already ran its boundary hook; resuming could act
   * twice.` Fix: Start a new run.
   */
  resumeHookRan: "RUN-RESUME-003",
  /**
   * The tool result a resumed run gives the model for a call that was in flight when the run
   * stopped: its effect is unknown, so it is not run again (Read, Glob and Grep run again).
   * Example: `RUN-RESUME-004: The run stopped (a crash, a kill or an interruption) while this Bash
   * call was running, so its effect is unknown: …` Fix: The model checks the state (files, git
   * status/log) before repeating the call.
   */
  resumeEffectUnknown: "RUN-RESUME-004",
  /**
   * The journal's `run_start` does not describe a run of this agent started here: another run id,
   * another starting folder than the one resume runs in (whose logging folder held the journal),
   * another agent, a working folder other than that folder (plain mode) or than a worktree of its
   * repository on the run's branch (worktree mode). Nothing ran. Example: `The journal …/run.jsonl
   * does not describe a run of this agent in this folder: it says the run worked in /home/me, not
   * in /repo. It was not resumed, and nothing ran.` Fix: Resume from the folder the run was started
   * in, with its agent; a journal that says otherwise was edited: start a new run.
   */
  resumeOtherRun: "RUN-RESUME-005",
  /**
   * The agent folder changed since the run started (or was last resumed): a file added, removed or
   * changed (the message names them). As a warning: the change was accepted with
   * `--accept-changed-definition`. Example: `The agent definition in /repo/.agent/fix changed since
   * the run started (agent.json): its hooks, validators, sandbox setting and prompts may not be the
   * ones the run began with. The run was not resumed, and nothing ran.` Fix: Review the change;
   * start a new run, or `climpt resume <id> --accept-changed-definition` to continue under it.
   */
  resumeDefinitionChanged: "RUN-RESUME-006",
  /**
   * *Warning*: the definition could not be compared (the journal predates definition digests, or
   * the agent folder is too large to digest); the run resumes. Example: `The journal …/run.jsonl
   * records no digest of the agent definition (it predates them), so resume could not check that
   * /repo/.agent/fix is unchanged since the run started.` Fix: Check the agent folder's history by
   * hand.
   */
  resumeDefinitionUncompared: "RUN-RESUME-007",
  /**
   * `fork` found no run to fork: no journal of that id in the agent's journal folder of this
   * folder, or a journal without `run_start`, or one of another agent. Nothing was made. Example:
   * `No journal of run 20261122T003512Z-a1b2c3 at /repo/tmp/climpt/logs/fix/…jsonl to fork from.`
   * Fix: `climpt runs` lists the runs; fork from the folder the run was started in, with its agent.
   */
  forkNoRun: "RUN-FORK-001",
  /**
   * `fork --at` names a point the source run never reached: an iteration past its last one, or a
   * step it never ran (or one no step of the agent has), or an iteration that is not a whole
   * number from 1. Nothing was made. Example: `Run … never reached iteration 12: it ran 7.` Fix:
   * `climpt show <run id>` lists its iterations and steps; pass one of them.
   */
  forkPointNotReached: "RUN-FORK-002",
  /**
   * The point `fork --at` names has no snapshot of the working tree to start from: the journal
   * predates snapshots, the run worked outside a repository or kept none (`snapshots: false`),
   * the snapshot failed (a notice in the journal says why), or its commit is gone from the
   * repository (removed refs), or a fleet's run whose snapshots the remote does not have (`--remote`
   * names another remote, or an older worker did not push them). Nothing was made. Example: `Run
   * … recorded no snapshot of its working tree before iteration 2 (continuation.implement), so a
   * fork cannot start there.` Fix: Fork at another point that has one, or start a new run.
   */
  forkNoSnapshot: "RUN-FORK-003",
  /**
   * The source run's journal names a snapshot that is not a commit id, a step end whose
   * iteration is not a whole number from 1, or a base branch that is not a branch name: it was
   * not written by climpt (an edited file, or a
   * fleet's Redis stream written by something else), and those values would reach git's command
   * line. Nothing was made. Example: `The journal of run … names "--upload-pack=…" as the snapshot
   * of its start: that is not a commit id, so the run is not forked.` Fix: Fork another run, or
   * start a new one.
   */
  forkJournalMalformed: "RUN-FORK-004",
  /**
   * The `onStepEnd` hook (a fleet worker pushing the run's branch) failed after a step end; the run
   * stops, the step is recorded. Resumable. Example: `The step-end hook failed after step
   * initial.work (iteration 1): git push: remote unreachable` Fix: Fix what the hook reports, then
   * resume the run.
   */
  stepHookFailed: "RUN-STEP-HOOK-001",
  /**
   * A git command of worktree mode failed (not a repository, no commit). Example: `git worktree add
   * … failed in /repo: fatal: not a git repository.` Fix: Run inside a git repository with at least
   * one commit, or turn worktree mode off.
   */
  worktreeGitFailed: "RUN-WORKTREE-001",
  /**
   * `--base-branch` names no local branch; nothing is created. Example: `The base branch "develop"
   * does not exist in /repo.` Fix: Pass an existing local branch, or leave the flag out to start
   * from the current branch.
   */
  noBaseBranch: "RUN-WORKTREE-002",
  /**
   * After a successful run the run's branch does not merge cleanly into the base branch. The base
   * is unchanged (never half-merged); worktree and branch are kept. Example: `The run's branch
   * "climpt/fix/…" does not merge cleanly into "main" (conflicts in src/a.ts). "main" is unchanged;
   * …` Fix: Merge by hand as the hint says (`git merge --no-ff <branch>`), then `git worktree
   * remove <path>`.
   */
  mergeConflict: "RUN-WORKTREE-003",
  /**
   * The base branch has uncommitted changes where it is checked out, so the branch was not merged.
   * Example: `The base branch "main" has uncommitted changes in /repo, so the run's branch "…" was
   * not merged into it.` Fix: Commit or stash them, then merge the branch by hand.
   */
  baseBranchDirty: "RUN-WORKTREE-004",
  /**
   * `git push` after a successful worktree run failed. Example: `git push origin main failed (exit
   * 128): fatal: 'origin' does not appear to be a git repository` Fix: Fix the remote
   * (`--push-remote`) and push by hand.
   */
  pushFailed: "RUN-WORKTREE-005",
  /**
   * `gh pr create` after a successful worktree run failed, or there is no base branch to target.
   * Example: `gh pr create --head climpt/fix/… --base main failed (exit 1): …` Fix: Open the pull
   * request by hand (`gh pr create --head <branch>`); the branch is pushed.
   */
  pullRequestFailed: "RUN-WORKTREE-006",
  /**
   * After a successful worktree run, the run's commits change agent definitions (`.agent/`, the
   * running agent's folder) and agent.json does not declare `runner.boundaries.editAgents: true`:
   * the branch was not merged. The base is unchanged; worktree and branch are kept. Example: `The
   * run's commits change agent definitions (.agent/fix/agent.json), which this agent may not change
   * (agent.json runner.boundaries.editAgents is not true), so "climpt/fix/…" was not merged into
   * "main". …` Fix: Review them (`git diff main...<branch> -- .agent`), then merge by hand (`git
   * merge --no-ff <branch>`) or drop the branch; an agent meant to edit agents declares
   * `editAgents: true`.
   */
  agentDefinitionsEdited: "RUN-WORKTREE-007",
  /**
   * `climpt verify`: the run's ledger has no validation attempt that passed on a commit (no
   * validation ran, none passed, or it ran outside a git repository), so there is nothing to
   * re-check. Example: `Run fix-bug-… has no passing validation attempt on a commit in its
   * ledger.` Fix: Verify a run that completed in a git repository (`climpt runs`).
   */
  verifyNothingRecorded: "RUN-VERIFY-001",
  /**
   * `climpt verify --at SHA` names nothing that is a commit of the run's repository. Example:
   * `--at 1234abc is not a commit of /repo.` Fix: Pass a commit (`git log` there), or leave
   * `--at` out to verify the commit the ledger recorded.
   */
  verifyUnknownCommit: "RUN-VERIFY-002",
  /**
   * `climpt verify` could not make its scratch worktree at the commit, or read the run's
   * repository or agent. Example: `git worktree add --detach … failed in /repo: …` Fix: Read the
   * git error; `git worktree prune` in the repository removes stale worktree entries.
   */
  verifySetupFailed: "RUN-VERIFY-003",
} as const;

export type RunnerCode = (typeof RUNNER_CODES)[keyof typeof RUNNER_CODES];
