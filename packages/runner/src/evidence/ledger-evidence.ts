/**
 * The completion ledger where people look (docs/design.md#the-completion-ledger): a short
 * markdown table for the pull request body, the closing comment and the orchestrator's
 * handoff comments, and the `climpt/verified` commit status on the verified commit. Everything
 * here runs on the host (the runner's gh, the run's repository), never through the model.
 */
import type { CommandRunner } from "@climpt/completion-chain";
import { type LedgerAttempt, lastPassingAttempt } from "@climpt/protocol";

/** The commit status context climpt sets, and `climpt verify` marks stale. */
export const VERIFIED_STATUS_CONTEXT = "climpt/verified";

/** A table cell: one line, no `|` to break the row, as inline code when asked. */
function cell(text: string, code = false): string {
  const line = text.replace(/\s+/g, " ").trim().replaceAll("|", "\\|");
  if (!code) return line;
  // A code span long enough that no backtick run inside can close it.
  const ticks = "`".repeat(Math.max(1, ...[...line.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${ticks.length > 1 ? " " : ""}${line}${ticks.length > 1 ? " " : ""}${ticks}`;
}

/**
 * The ledger's last passing attempt as markdown: validator, command, result, commit, time, and
 * the command that re-checks it. Undefined when no attempt passed on a commit.
 */
export function ledgerMarkdown(
  ledger: readonly LedgerAttempt[],
  runId: string,
): string | undefined {
  const attempt = lastPassingAttempt(ledger);
  if (attempt === undefined) return undefined;
  const commit = attempt.commit;
  const sha = commit === null ? "—" : cell(commit.sha.slice(0, 12), true);
  const rows = attempt.entries.map((entry) => {
    const compared = entry.baseline?.status === "compared" ? entry.baseline : undefined;
    const result = !entry.passed
      ? "⚠️ failed (skipped)"
      : compared !== undefined && compared.preExisting.length > 0
        ? `✅ passed: ${compared.preExisting.length} failure${compared.preExisting.length === 1 ? "" : "s"} pre-existing, ${compared.introduced.length === 0 ? "none" : compared.introduced.length} introduced`
        : "✅ passed";
    const exit = entry.timedOut ? "timed out" : `exit ${entry.exitCode ?? "none"}`;
    const time = `${(entry.durationMs / 1000).toFixed(1)} s`;
    return `| ${cell(entry.validator)} | ${cell(entry.command, true)} | ${result} (${exit}) | ${sha} | ${time} |`;
  });
  const where =
    commit === null
      ? "outside a git repository"
      : `on commit ${commit.sha}${commit.clean ? "" : " with uncommitted changes"}`;
  return [
    `**climpt completion ledger** — run \`${runId}\`, ${attempt.stepId} attempt ${attempt.attempt}, ${where}, ${attempt.time}:`,
    "",
    "| validator | command | result | commit | time |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    ...preExistingLines(attempt),
    "",
    `Re-check: \`climpt verify ${runId}\``,
  ].join("\n");
}

/**
 * Failures the change did not cause, named under the table: a reader of the pull request sees
 * what already failed on the base (and so did not block) apart from what the change broke.
 */
function preExistingLines(attempt: LedgerAttempt): string[] {
  const lines: string[] = [];
  for (const entry of attempt.entries) {
    const baseline = entry.baseline;
    if (baseline?.status !== "compared" || baseline.preExisting.length === 0) continue;
    const base =
      baseline.baseSha === undefined ? "the base" : cell(baseline.baseSha.slice(0, 12), true);
    const named = baseline.preExisting.map((failure) => cell(failure, true)).join(", ");
    lines.push(
      "",
      `Pre-existing in ${cell(entry.validator)} (failing on ${base} too, not caused by this change): ${named}. Introduced: ${baseline.introduced.length === 0 ? "none" : baseline.introduced.map((failure) => cell(failure, true)).join(", ")}.`,
    );
  }
  return lines;
}

export interface CommitStatusInput {
  /** Runs `gh` (the runner's command runner: the caller's credentials, on the host). */
  readonly commandRunner: CommandRunner;
  /** Where gh runs: the run's repository. */
  readonly cwd: string;
  /** `owner/repo`; absent: gh's `{owner}/{repo}` of `cwd`. */
  readonly repository?: string | undefined;
  readonly sha: string;
  readonly state: "success" | "failure";
  readonly description: string;
  readonly signal?: AbortSignal | undefined;
}

const STATUS_TIMEOUT_MS = 60_000;

/**
 * Sets the `climpt/verified` commit status through `gh api …/statuses/<sha>`. Returns why it
 * failed (gh's message), or undefined when it was set.
 */
export async function setVerifiedStatus(input: CommitStatusInput): Promise<string | undefined> {
  const repo = input.repository ?? "{owner}/{repo}";
  // GitHub keeps a description of at most 140 characters.
  const description =
    input.description.length > 140 ? `${input.description.slice(0, 139)}…` : input.description;
  const outcome = await input.commandRunner(
    "gh",
    [
      "api",
      "--method",
      "POST",
      `repos/${repo}/statuses/${input.sha}`,
      "-f",
      `state=${input.state}`,
      "-f",
      `context=${VERIFIED_STATUS_CONTEXT}`,
      "-f",
      `description=${description}`,
    ],
    {
      cwd: input.cwd,
      timeoutMs: STATUS_TIMEOUT_MS,
      ...(input.signal === undefined ? {} : { signal: input.signal }),
    },
  );
  if (outcome.exitCode === 0 && outcome.timedOut !== true) return undefined;
  return (outcome.stderr.trim() || outcome.stdout.trim() || `exit ${outcome.exitCode}`).slice(
    0,
    300,
  );
}
