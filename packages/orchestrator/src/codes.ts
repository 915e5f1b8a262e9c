/**
 * Every code this package reports. `WF-*` are problems in `.agent/workflow.json`; the families
 * and the numbers the original runtime used keep their meaning, so a user can search them. `ORC-*`
 * are the orchestrator's own run-time outcomes: a `gh` call that failed, a dispatch that could not
 * start, a cycle rule that stopped an issue, the queue. @climpt/registry-schema's error catalogue
 * has a row for each.
 */
export const ORCHESTRATOR_CODES = {
  /**
   * The workflow file does not exist. Example: `There is no workflow file at
   * /repo/.agent/workflow.json.` Fix: Create `.agent/workflow.json`, or pass `--workflow PATH`.
   */
  loadNotFound: "WF-LOAD-001",
  /**
   * The workflow file exists but cannot be read. Example: `The workflow file
   * /repo/.agent/workflow.json cannot be read: EACCES: permission denied, open
   * '/repo/.agent/workflow.json'.` Fix: Check its permissions.
   */
  loadReadFailed: "WF-LOAD-002",
  /**
   * The workflow file is not JSON. Example: `The workflow is not valid JSON: Unexpected token } in
   * JSON at position 120.` Fix: Fix the syntax.
   */
  loadInvalidJson: "WF-LOAD-003",
  /**
   * An object in the file names the same key twice (JSON.parse would keep only the last). Example:
   * `"fix" is given twice in $.agents; JSON keeps only the last, so the first is lost without a
   * word.` Fix: Keep one entry.
   */
  loadDuplicateKey: "WF-LOAD-004",
  /**
   * `version` is missing or not a string. Example: — Fix: Add `"version": "1.0.0"`.
   */
  schemaVersion: "WF-SCHEMA-001",
  /**
   * `phases` is missing or not an object. Example: — Fix: Add the phases.
   */
  schemaPhases: "WF-SCHEMA-002",
  /**
   * `labelMapping` is missing or not an object. Example: — Fix: Map labels to phases.
   */
  schemaLabelMapping: "WF-SCHEMA-003",
  /**
   * `agents` is missing or not an object. Example: — Fix: Declare the agents.
   */
  schemaAgents: "WF-SCHEMA-004",
  /**
   * A field has the wrong type (a phase that is not an object, a role that is neither kind, …).
   * Example: `$.agents.iterator.directory must be a string, not number 3.` Fix: Use the type the
   * message names.
   */
  schemaType: "WF-SCHEMA-005",
  /**
   * A field the format does not have (a typo); warning. Example: `"lables" is not a field of the
   * workflow; it is ignored. Did you mean "labels"?` Fix: Correct or remove it.
   */
  schemaUnknownField: "WF-SCHEMA-006",
  /**
   * A phase type other than actionable / terminal / blocking. Example: — Fix: Use one of the three.
   */
  phaseType: "WF-PHASE-001",
  /**
   * An actionable phase without `agent`. Example: `Actionable phase "implementation" names no
   * agent, so nothing can work on an issue in it.` Fix: Name its agent.
   */
  phaseAgentRequired: "WF-PHASE-002",
  /**
   * An actionable phase without `priority`. Example: `Actionable phase "implementation" has no
   * priority.` Fix: Give it a number.
   */
  phasePriorityRequired: "WF-PHASE-003",
  /**
   * No label maps to the phase: no issue can be put in it, by a person or by a transition. Example:
   * `No label maps to phase "review", so no issue can be in it: neither a person nor a transition
   * can put one there.` Fix: Map a label to it.
   */
  phaseUnreachable: "WF-PHASE-004",
  /**
   * The workflow has no blocking phase: a stuck issue keeps its phase (warning). Example: — Fix:
   * Add one, with a label.
   */
  phaseNoBlocking: "WF-PHASE-005",
  /**
   * A terminal or blocking phase names an agent, which never runs (warning). Example: — Fix: Remove
   * it.
   */
  phaseAgentIgnored: "WF-PHASE-006",
  /**
   * `labelMapping` is empty. Example: — Fix: Map at least one label.
   */
  labelMappingEmpty: "WF-LABEL-001",
  /**
   * A label maps to a phase that does not exist. Example: `Label "ready" maps to phase
   * "implementaton", which phases does not declare. Did you mean "implementation"?` Fix: Declare
   * the phase or fix the mapping.
   */
  labelUnknownPhase: "WF-LABEL-002",
  /**
   * `labels` lacks a spec for a label the workflow uses. Example: — Fix: Add the spec.
   */
  labelSpecMissing: "WF-LABEL-003",
  /**
   * `labels` declares a label nothing uses. Example: — Fix: Remove it or use it.
   */
  labelSpecOrphan: "WF-LABEL-004",
  /**
   * A label colour is not six hex digits. Example: — Fix: Write e.g. `a2eeef`.
   */
  labelSpecColor: "WF-LABEL-005",
  /**
   * One GitHub label is mapped twice (GitHub compares label names case-insensitively). Example:
   * `Label "Ready" is mapped twice: GitHub treats it and "ready" as one label.` Fix: Keep one.
   */
  labelMappedTwice: "WF-LABEL-006",
  /**
   * `rules.maxCycles` is not a positive integer. Example: — Fix: Fix it.
   */
  ruleMaxCycles: "WF-RULE-001",
  /**
   * `rules.cycleDelayMs` is negative or not a number. Example: — Fix: Fix it.
   */
  ruleCycleDelay: "WF-RULE-002",
  /**
   * `rules.maxConsecutivePhases` is negative or not an integer. Example: — Fix: Fix it (0 turns it
   * off).
   */
  ruleMaxConsecutive: "WF-RULE-003",
  /**
   * A phase names an agent `agents` does not declare. Example: — Fix: Declare it or fix the name.
   */
  refUnknownAgent: "WF-REF-001",
  /**
   * An agent's `fallbackPhase` is not a phase. Example: — Fix: Name a declared phase.
   */
  refUnknownFallbackPhase: "WF-REF-002",
  /**
   * A transformer's `outputPhase` is not a phase. Example: — Fix: Name a declared phase.
   */
  refUnknownOutputPhase: "WF-REF-003",
  /**
   * A validator's `outputPhases` entry is not a phase. Example: — Fix: Name a declared phase.
   */
  refUnknownOutputPhasesEntry: "WF-REF-004",
  /**
   * `closeCondition` without `closeOnComplete: true`. Example: — Fix: Add it, or remove the
   * condition.
   */
  refCloseConditionWithoutClose: "WF-REF-005",
  /**
   * A validator's `closeCondition` is not one of its outcomes. Example: — Fix: Use an outcome.
   */
  refInvalidCloseCondition: "WF-REF-006",
  /**
   * An outcome with no phase: a transformer without `outputPhase`, a validator without outcomes.
   * Example: `Transformer "iterator" has no outputPhase, so a successful run has no phase to go
   * to.` Fix: Add them.
   */
  refOutcomeWithoutPhase: "WF-REF-007",
  /**
   * `prioritizer.agent` is not a declared agent. Example: `--prioritize was given, but the
   * prioritizer's agent "triager" is not declared under agents.` Fix: Declare the agent, or drop
   * `--prioritize`.
   */
  refUnknownPrioritizerAgent: "WF-REF-008",
  /**
   * An agent no phase (and not the prioritizer) uses (warning). Example: — Fix: Use or remove it.
   */
  refAgentUnused: "WF-REF-009",
  /**
   * A transformer's `fallbackPhases` entry is not a phase. Example: — Fix: Name a declared phase.
   */
  refUnknownFallbackPhasesEntry: "WF-REF-010",
  /**
   * An agent without `fallbackPhase`: its failures go to the blocking phase (warning), or nowhere
   * (error). Example: `Agent "iterator" has no fallbackPhase and the workflow has no blocking
   * phase: a failed run holds the issue in its phase until a person relabels it.` Fix: Add one.
   */
  refNoFallback: "WF-REF-011",
  /**
   * From an actionable phase no terminal phase can be reached through the agents' outcomes
   * (warning). Example: — Fix: Route an outcome to one.
   */
  flowNoTerminal: "WF-FLOW-001",
  /**
   * A `handoffs` entry (or `payloadSchema`) is not shaped as the format says. Example: `Handoff
   * "reviewer-approved" persistPayloadTo is "store"; it must be "subjectStore" or "none".` Fix:
   * Write the field as the orchestrator README's *Artifact handoffs* shows.
   */
  handoffShape: "WF-HANDOFF-001",
  /**
   * A `payloadFrom` expression (or `emit.path`) this orchestrator cannot evaluate. Example:
   * `payloadFrom "prNumber" is "agent.result.pr", which cannot be evaluated: it is neither a
   * 'quoted literal', a ${payload.<key>} template, nor a path starting with $.` Fix: Correct the
   * expression.
   */
  handoffExpression: "WF-HANDOFF-002",
  /**
   * A schema a handoff or `payloadSchema` names cannot be found, read, or compiled. Example: `The
   * schema "pr-merger-verdict@1.0.0" is in none of
   * /repo/.agent/schemas/pr-merger-verdict@1.0.0.json,
   * /repo/agents/common/schemas/pr-merger-verdict@1.0.0.json.` Fix: Put the schema there, or fix
   * the reference.
   */
  handoffSchema: "WF-HANDOFF-003",
  /**
   * A handoff can never fire here: its agent or outcome is not this workflow's (warning). Example:
   * `Handoff "reviewer-approved-verdict" waits for agent "reviewer", which agents does not declare,
   * so no run of this workflow fires it; …` Fix: Declare the agent, name one of its outcomes, or
   * give the payload with `--payload`.
   */
  handoffNeverFires: "WF-HANDOFF-004",
  /**
   * `land` is not shaped as the format says. Example: `The landing mode is "pr"; it must be one of
   * merge, pull-request, push.` Fix: Write one of the modes.
   */
  landShape: "WF-LAND-001",
  /**
   * `--prioritize` but the workflow has no `prioritizer`. Example: `--prioritize was given, but the
   * workflow has no prioritizer.` Fix: Add one, or drop the flag.
   */
  batchNoPrioritizer: "WF-BATCH-001",
  /**
   * A phase's `checks` is not shaped as the format says (a value out of range, not an object), or
   * is on a phase that is not actionable. Example: `$.phases.ci.checks.pollSeconds must be a number
   * of seconds greater than 0, got 0.` Fix: Write the field as the orchestrator README's *Following
   * a pull request's checks* shows.
   */
  checksShape: "WF-CHECKS-001",
  /**
   * The agent of a `checks` phase is not a transformer. Example: `Phase "ci" follows a pull
   * request's checks, but its agent "reviewer" is a validator: …` Fix: Give the phase a transformer
   * that fixes failing checks.
   */
  checksAgentRole: "WF-CHECKS-002",
  /**
   * `prioritizer.labels` is missing or empty, or not a list of names. Example: — Fix: List the
   * order labels.
   */
  prioritizerLabels: "WF-PRIO-001",
  /**
   * `prioritizer.defaultLabel` is not one of `prioritizer.labels`. Example: — Fix: Use one of them.
   */
  prioritizerDefaultLabel: "WF-PRIO-002",

  /**
   * `gh` is not installed (or not on PATH). Example: `The gh CLI (gh) was not found.` Fix: Install
   * gh and `gh auth login`.
   */
  ghNotFound: "ORC-GH-001",
  /**
   * A `gh` command exited non-zero; its stderr is in the message. Example: — Fix: Check auth, the
   * issue, the labels (`climpt labels sync`).
   */
  ghFailed: "ORC-GH-002",
  /**
   * A `gh` command did not finish within its time limit. Example: `gh issue list did not finish
   * within 60000 ms and was stopped.` Fix: Check the network; the next pass retries.
   */
  ghTimedOut: "ORC-GH-003",
  /**
   * `gh` printed something that is not the JSON asked for. Example: — Fix: Check the gh version.
   */
  ghBadOutput: "ORC-GH-004",
  /**
   * The agent of a phase cannot be loaded (its folder is missing or invalid). Example: `The agent
   * "iterator" (/repo/.agent/iterator) does not load: SR-LOAD-002: …` Fix: `climpt validate` it,
   * then relabel.
   */
  dispatchAgentInvalid: "ORC-DISPATCH-001",
  /**
   * The runner refused the run (bad arguments, a missing working directory). Example: — Fix: Read
   * the message.
   */
  dispatchRefused: "ORC-DISPATCH-002",
  /**
   * The worktree or branch could not be made. Example: — Fix: The repository needs a
   * commit; remove a stale worktree.
   */
  dispatchWorktree: "ORC-DISPATCH-003",
  /**
   * A crashed run could not be read back from its journal. Example: — Fix: Restore it, or delete
   * the record.
   */
  dispatchJournal: "ORC-DISPATCH-004",
  /**
   * The run stopped for a reason that is not the agent's (interrupted, the model API failing); it
   * is resumed on the next pass. Example: `Stopped before the next cycle.` Fix: Run again to
   * resume.
   */
  dispatchInterrupted: "ORC-DISPATCH-005",
  /**
   * The run was interrupted (stopped, killed, the model API out of reach) on too many
   * passes in a row: it fails, takes the fallback phase, and a comment says why. Example: `The
   * implementer run 20261128T020000Z-ab12cd was interrupted 5 time(s) in a row without reaching an
   * outcome; the last time: AC-MODEL-003: Overloaded. It is not resumed again.` Fix: Fix what keeps
   * stopping it, then relabel the issue.
   */
  dispatchInterruptedTooOften: "ORC-DISPATCH-006",
  /**
   * A handoff's `payloadFrom` expression has no value in the run's output. Example: `Handoff
   * "reviewer-approved-verdict" cannot resolve payload "base_branch" from
   * "$.agent.result.base_branch": the value is absent.` Fix: Make the agent output the field, or
   * change the expression.
   */
  handoffUnresolved: "ORC-HANDOFF-001",
  /**
   * A payload does not satisfy its schema (the handoff's `schemaRef`, or `payloadSchema`). Example:
   * `The payload of handoff "reviewer-approved-verdict" does not satisfy the schema
   * "pr-merger-verdict@1.0.0" (…): $.pr_number: must be number.` Fix: Make the output (or the
   * payload given) satisfy the schema.
   */
  handoffInvalid: "ORC-HANDOFF-002",
  /**
   * A handoff's artifact cannot be written (its path leaves the worktree, an I/O error).
   * Example: `Handoff "review-verdict" would write its artifact to "../x.json", which leaves the
   * issue's worktree (it has a ".." segment).` Fix: Constrain the values the path is made from.
   */
  handoffWrite: "ORC-HANDOFF-003",
  /**
   * The branch does not merge cleanly into the base branch; the base is unchanged. Example:
   * `The branch "climpt/issue-12" does not merge cleanly into "main" (conflicts in
   * src/a.ts). "main" is unchanged; the branch keeps the work.` Fix: Merge by hand as the hint
   * says, then relabel.
   */
  landConflict: "ORC-LAND-001",
  /**
   * The base branch cannot take the merge (uncommitted changes there, no branch to merge into).
   * Example: `The base branch "main" has uncommitted changes in /repo, so the branch
   * "climpt/issue-12" was not merged into it.` Fix: Commit or stash them (or name `land.base`),
   * merge by hand, relabel.
   */
  landBase: "ORC-LAND-002",
  /**
   * `git push` of the branch (or of the base after the merge) failed. Example: `git push
   * origin climpt/issue-12 failed: rejected (fetch first).` Fix: Fix the remote, push by hand,
   * relabel.
   */
  landPush: "ORC-LAND-003",
  /**
   * The pull request for the branch could not be found or opened. Example: `No pull request
   * was opened for "climpt/issue-12" (issue #12): gh pr create exited 1: …` Fix: Open it by hand
   * with the hint's command, relabel.
   */
  landPullRequest: "ORC-LAND-004",
  /**
   * A validator's run reported no verdict: the issue takes the fallback phase. Example: `Validator
   * "reviewer" finished without a verdict, so its outputPhases cannot choose the next phase.` Fix:
   * Make its closure output a verdict.
   */
  verdictMissing: "ORC-VERDICT-001",
  /**
   * A validator's verdict is not a key of its `outputPhases`: the issue takes the fallback phase.
   * Example: `Validator "reviewer" gave the verdict "maybe", which its outputPhases do not name
   * (approved, rejected).` Fix: Add it, or constrain the schema.
   */
  verdictUnknown: "ORC-VERDICT-002",
  /**
   * The issue reached `rules.maxCycles` transitions. Example: `The issue made 5 phase transitions
   * (rules.maxCycles is 5) without reaching a terminal phase.` Fix: Read the history; relabel to
   * resume.
   */
  cycleLimit: "ORC-CYCLE-001",
  /**
   * The issue entered the same phase `rules.maxConsecutivePhases` times in a row. Example: `The
   * issue entered phase "implementation" 3 times in a row (rules.maxConsecutivePhases is 3); it
   * looks stuck there.` Fix: Fix what keeps it there; relabel.
   */
  consecutiveLimit: "ORC-CYCLE-002",
  /**
   * The orchestrator's record of an issue cannot be read (corrupt file). Example: `The
   * orchestrator's record /repo/.climpt/orchestrator/issue-12.json cannot be read: Unexpected end
   * of JSON input.` Fix: Delete it; the labels keep the phase.
   */
  stateUnreadable: "ORC-STATE-001",
  /**
   * Another orchestrator is working on the issue. Example: `Issue #12 is being worked on by another
   * orchestrator.` Fix: Wait, or remove a stale lock.
   */
  stateLocked: "ORC-STATE-002",
  /**
   * The issue's lock was lost while this orchestrator held it (its lease ran out, another worker
   * took the issue): the run is stopped, resumable, and nothing more is written for the issue.
   * Example: `Issue #12's lock was lost (its lease ran out or another worker took it): the run is
   * stopped and nothing more is written for the issue.` Fix: Nothing, usually: the job is taken
   * again and the run resumes. If it keeps happening, raise `--lease` (the machine stalls for three
   * quarters of it or more; it is renewed every quarter).
   */
  stateLockLost: "ORC-STATE-003",
  /**
   * The issue is held in its phase: a run's outcome there had no phase to go to (no fallback, no
   * blocking phase). It is not dispatched again until a person relabels it. Example: `Agent
   * "implementer" ended with outcome "failed" in phase "implementing", and the workflow has no
   * phase for it (no fallbackPhase, no blocking phase): the issue stays there until a person
   * relabels it.` Fix: Give the agent a fallbackPhase or add a blocking phase; relabel the issue.
   */
  stateHalted: "ORC-STATE-004",
  /**
   * The prioritizer's run failed or gave no usable order; the batch runs in issue order. Example:
   * `The prioritizer "triager" (run 2026-01-01T00-00-00-abc) gave no usable order; the batch runs
   * in issue order.` Fix: Check its output shape.
   */
  prioritizerFailed: "ORC-PRIO-001",
  /**
   * Redis cannot be reached at the queue URL. Example: `Redis at redis://127.0.0.1:6379 cannot be
   * reached: connect ECONNREFUSED 127.0.0.1:6379.` Fix: Start it, or fix `--queue`.
   */
  queueUnreachable: "ORC-QUEUE-001",
  /**
   * The queue URL is not a redis:// or rediss:// URL. Example: `"localhost:6379" is not a Redis
   * URL.` Fix: Write `redis://HOST:PORT`.
   */
  queueBadUrl: "ORC-QUEUE-002",
  /**
   * A job's data is not what `climpt orchestrate --queue` enqueues. Example: `A job's data is not
   * an issue job of this climpt version: {"foo":1}` Fix: Remove foreign jobs.
   */
  queueBadJob: "ORC-QUEUE-003",
  /**
   * The fleet (the queue, `startFleetWorker`, `fleetStatus`, `enqueueIssues`) needs BullMQ and
   * ioredis, optional peers a project that never runs a fleet does not install. Example: `The
   * fleet needs the packages bullmq and ioredis, which are not installed (Cannot find package
   * 'bullmq' imported from …).` Fix: Install them next to climpt: `npm i -D bullmq ioredis`.
   */
  queuePackagesMissing: "ORC-QUEUE-004",
  /**
   * A model request waited longer than the limiter's bound for a slot. Example: `A model request
   * waited 600000 ms for a slot of the shared limiter and gave up.` Fix: Lower concurrency; check
   * rate limits.
   */
  limiterTimeout: "ORC-LIMIT-001",
  /**
   * The Redis journal refused an event: it is not the stream's next one (another worker writes the
   * run), or Redis failed; or an entry there is not an event. Example: `Event 42 of run
   * 20261122T003512Z-a1b2c3 was refused by the Redis journal
   * climpt:journal:implementer:20261122T003512Z-a1b2c3: expected event 40.` Fix: Let the job be
   * taken again (another worker resumes it from the stream); check Redis if it keeps failing.
   */
  journalRefused: "ORC-JOURNAL-001",
  /**
   * A `checks` phase found no open pull request for the branch: there are no checks to
   * follow. The issue takes the fallback phase. Example: `No open pull request has the head branch
   * "climpt/issue-12", so its checks cannot be followed.` Fix: Land the previous phase with
   * `land: pull-request` (or open the pull request by hand), then relabel.
   */
  checksNoPullRequest: "ORC-CHECKS-001",
  /**
   * The pull request's checks did not all finish within the phase's `checks.timeoutMinutes` for one
   * head commit: the issue takes the fallback phase, the comment names the pending checks. Example:
   * `The check "test" of https://github.com/acme/widgets/pull/7 was still pending after 60
   * minutes.` Fix: Look at the CI run; raise `timeoutMinutes` if it is just slow; relabel.
   */
  checksTimedOut: "ORC-CHECKS-002",
  /**
   * The pull request's checks failed again after `checks.maxFixAttempts` runs of the fix agent (or
   * with 0 attempts allowed): the issue takes the fallback phase, the comment names the failing
   * checks and links their runs. Example: `The check "test" failed on
   * https://github.com/acme/widgets/pull/7 after 2 fix attempts.` Fix: Fix the branch by hand, or
   * relabel to give the fix agent new attempts.
   */
  checksStillFailing: "ORC-CHECKS-003",
  /**
   * Not a failure: the issue waits for its pull request's checks (pending, or not started yet); it
   * keeps its phase and is read again after `checks.pollSeconds` (a delayed job in the fleet).
   * Example: `Waiting for the check "test" on https://github.com/acme/widgets/pull/7 (head
   * 1a2b3c4d5e6f).` Fix: Nothing: run `climpt orchestrate` again, or let the fleet take the job.
   */
  checksPending: "ORC-CHECKS-004",
  /**
   * `climpt fork <run id> --queue …` found no journal of that run in Redis (no stream under the
   * agent's name), or one with a line that is not an event. Nothing was made. Example: `No journal
   * of run 20261122T003512Z-a1b2c3 of agent "implementer" in Redis (climpt:journal:implementer:…).`
   * Fix: `climpt fleet status --queue …` and the record name the fleet's runs; check the run id,
   * the agent and the queue URL.
   */
  forkSourceMissing: "ORC-JOURNAL-002",
} as const;

export type OrchestratorCode = (typeof ORCHESTRATOR_CODES)[keyof typeof ORCHESTRATOR_CODES];

/** A coded run-time failure, as data. */
export interface OrchestratorError {
  /** The specific code (`AC-MODEL-003`, `WF-LOAD-001`, …). */
  readonly code: string;
  /**
   * The run-level family of a run's error when the runner reported one (`AGENT_INTERRUPTED`,
   * `GATE_INTERPRETATION_ERROR`, …). Decisions route on `family ?? code`.
   */
  readonly family?: string;
  readonly message: string;
  readonly hint?: string;
  /** Where the problem is, when it has a place: a JSON path (`$.pr_number`, `$.handoffs[0]…`). */
  readonly path?: string;
}
