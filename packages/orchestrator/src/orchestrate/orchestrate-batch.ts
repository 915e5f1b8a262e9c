import { availableParallelism } from "node:os";
import { formatCode, type JsonValue } from "@climpt/model";
import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";
import type { GhIssue } from "../github/gh-client.ts";
import { type LabelSyncEntry, syncLabels } from "../github/label-sync.ts";
import { orderIssues, readPriorityAssignments } from "../phase-machine/priority-order.ts";
import { resolvePhase } from "../phase-machine/resolve-phase.ts";
import { agentById, githubLabel } from "../workflow-model.ts";
import {
  type IssueResult,
  type OrchestratorContext,
  orchestrateIssue,
} from "./orchestrate-issue.ts";
import { prioritizerProblem } from "./prioritizer-problem.ts";
import { runPoolWithWaits } from "./waiting-pool.ts";

export interface BatchOptions {
  /** Issues carrying every one of these labels. */
  readonly labels?: readonly string[];
  readonly state?: "open" | "closed" | "all";
  /** Most issues to take. Default 30. */
  readonly limit?: number;
  /** Issues worked on at once. Default: one per core. */
  readonly concurrency?: number;
  /** Run the prioritizer first and work in its order. */
  readonly prioritize?: boolean;
  /** Plan only: read GitHub, change nothing, run nothing. */
  readonly dryRun?: boolean;
}

export interface PlannedIssue {
  readonly issue: number;
  readonly title: string;
  readonly phase: string | null;
  readonly agent: string | null;
  /** Why it would not run: a terminal / blocking phase, no phase, a cycle rule. */
  readonly note: string | null;
  /** The payload its next agent would be given (its keys that agent declares become arguments). */
  readonly payload?: Readonly<Record<string, JsonValue>>;
}

export interface BatchResult {
  /** `completed`: every issue ended without an error; `partial`: some did not; `failed`: the batch could not start. */
  readonly status: "completed" | "partial" | "failed";
  readonly issues: readonly IssueResult[];
  /** The order the batch ran in (issue numbers). */
  readonly order: readonly number[];
  /** `--dry-run`: issue → phase → agent. */
  readonly plan: readonly PlannedIssue[];
  readonly labelSync: readonly LabelSyncEntry[];
  /** Problems that did not stop the batch (the prioritizer failing, a label not synced). */
  readonly warnings: readonly OrchestratorError[];
  readonly error?: OrchestratorError;
}

/** Runs `work` over `items` with at most `concurrency` at once, keeping results in item order. */
export async function runPool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from(
    { length: Math.max(1, Math.min(concurrency, items.length)) },
    async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T);
      }
    },
  );
  await Promise.all(lanes);
  return results;
}

function failed(error: OrchestratorError, labelSync: readonly LabelSyncEntry[] = []): BatchResult {
  return { status: "failed", issues: [], order: [], plan: [], labelSync, warnings: [], error };
}

/**
 * Runs the prioritizer over a batch and puts each issue's order label on it (one edit each,
 * replacing an order label it had). A prioritizer that fails or gives no usable order leaves the
 * batch as it was, with a warning.
 */
export async function prioritizeBatch(
  context: OrchestratorContext,
  issues: GhIssue[],
  warnings: OrchestratorError[],
): Promise<GhIssue[]> {
  const { workflow, dispatcher, gh } = context;
  const prioritizer = workflow.prioritizer;
  const agent = prioritizer === null ? undefined : agentById(workflow, prioritizer.agent);
  if (prioritizer === null || agent === undefined || dispatcher.prioritize === undefined)
    return issues;
  const run = await dispatcher.prioritize({
    agent,
    issues: issues.map((issue) => ({
      repo: context.repo,
      number: issue.number,
      title: issue.title,
    })),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  });
  const assignments = run.success
    ? readPriorityAssignments(
        prioritizer,
        run.output,
        issues.map((issue) => issue.number),
      )
    : [];
  if (assignments.length === 0) {
    warnings.push({
      code: C.prioritizerFailed,
      message: run.success
        ? `The prioritizer "${agent.id}" (run ${run.runId}) gave no usable order; the batch runs in issue order.`
        : `The prioritizer "${agent.id}" failed: ${run.error === undefined || run.error === null ? "" : formatCode(run.error)} ${run.error?.message ?? ""}`.trim(),
      hint: 'Its final output must hold "priorities": [{"issue": 12, "priority": "order:1"}, …] with labels of prioritizer.labels.',
    });
    return issues;
  }
  const orderLabels = prioritizer.labels.map((label) => githubLabel(workflow, label).toLowerCase());
  return Promise.all(
    issues.map(async (issue) => {
      const assignment = assignments.find((candidate) => candidate.issue === issue.number);
      if (assignment === undefined) return issue;
      const label = githubLabel(workflow, assignment.label);
      const remove = issue.labels.filter(
        (have) =>
          orderLabels.includes(have.toLowerCase()) && have.toLowerCase() !== label.toLowerCase(),
      );
      const add = issue.labels.some((have) => have.toLowerCase() === label.toLowerCase())
        ? []
        : [label];
      const edited = await gh.editLabels(issue.number, { add, remove });
      if (!edited.ok) {
        warnings.push(edited.error);
        return issue;
      }
      return {
        ...issue,
        labels: [...issue.labels.filter((have) => !remove.includes(have)), ...add],
      };
    }),
  );
}

/**
 * A batch: the issues matching the filters, in the prioritizer's order, each moved through its
 * phases by `orchestrateIssue`, up to `concurrency` at once. The workflow's labels are synced
 * first (creating what is missing), because gh refuses to add a label the repository lacks.
 */
export async function orchestrateBatch(
  context: OrchestratorContext,
  options: BatchOptions = {},
): Promise<BatchResult> {
  const { workflow, gh } = context;
  const dryRun = options.dryRun === true;
  const unusable = options.prioritize === true ? prioritizerProblem(workflow) : null;
  if (unusable !== null) return failed(unusable);
  const warnings: OrchestratorError[] = [];
  let labelSync: LabelSyncEntry[] = [];
  const synced = await syncLabels(gh, workflow, { dryRun });
  if (!synced.ok) return failed(synced.error);
  labelSync = synced.value;
  for (const entry of labelSync) if (entry.error !== undefined) warnings.push(entry.error);
  const listed = await gh.listIssues({
    ...(options.labels === undefined ? {} : { labels: options.labels }),
    state: options.state ?? "open",
    limit: options.limit ?? 30,
  });
  if (!listed.ok) return failed(listed.error, labelSync);
  let issues = listed.value;
  if (options.prioritize === true && !dryRun)
    issues = await prioritizeBatch(context, issues, warnings);
  const ordered = orderIssues(workflow, issues);
  const order = ordered.map((issue) => issue.number);
  if (dryRun) {
    const plan = ordered.map((issue): PlannedIssue => {
      const resolved = resolvePhase(workflow, issue.labels);
      return {
        issue: issue.number,
        title: issue.title,
        phase: resolved.kind === "none" ? null : resolved.phase.id,
        agent: resolved.kind === "actionable" ? resolved.agent.id : null,
        note:
          resolved.kind === "actionable"
            ? null
            : resolved.kind === "none"
              ? "no workflow label"
              : resolved.kind,
      };
    });
    const results = await runPool(ordered, options.concurrency ?? availableParallelism(), (issue) =>
      orchestrateIssue(context, issue.number, { dryRun: true }),
    );
    const withRules = plan.map((entry, index) => {
      const result = results[index];
      const error = result?.error;
      const payload = result?.payload;
      const planned = payload === undefined ? entry : { ...entry, payload };
      return error === undefined
        ? planned
        : { ...planned, note: `${error.code}: would be blocked (${error.message})` };
    });
    return { status: "completed", issues: results, order, plan: withRules, labelSync, warnings };
  }
  const results = await runPoolWithWaits(
    ordered,
    options.concurrency ?? availableParallelism(),
    (issue) => orchestrateIssue(context, issue.number),
    context.signal,
  );
  const clean = results.every(
    (result) => !["error", "interrupted", "locked", "waiting"].includes(result.status),
  );
  return {
    status: clean ? "completed" : "partial",
    issues: results,
    order,
    plan: [],
    labelSync,
    warnings,
  };
}
