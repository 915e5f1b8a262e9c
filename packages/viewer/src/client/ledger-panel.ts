import type { LedgerAttemptView } from "../view-model.ts";
import { fill, h } from "./dom.ts";
import { formatDuration, formatTime } from "./format.ts";

function commitText(attempt: LedgerAttemptView): string {
  const commit = attempt.commit;
  if (commit === null) return `no commit (${attempt.commitError ?? "not a git repository"})`;
  return `${commit.sha.slice(0, 12)} on ${commit.branch ?? "detached HEAD"} · ${commit.clean ? "clean tree" : "uncommitted changes"}`;
}

/**
 * The completion ledger (docs/design.md#the-completion-ledger): one table per validation
 * attempt, the commit it ran against, each validator's result, command, duration and findings,
 * and the command that re-checks the run. Empty for a run whose journal has no ledger.
 */
export function renderLedger(
  target: HTMLElement,
  ledger: readonly LedgerAttemptView[],
  runId: string,
): void {
  if (ledger.length === 0) {
    fill(target);
    return;
  }
  fill(
    target,
    h("h3", {}, "Completion ledger"),
    ...ledger.map((attempt) =>
      h(
        "div",
        {
          class: `ledger-attempt ${attempt.passed ? "passed" : "failed"}`,
          "data-commit": attempt.commit?.sha ?? "",
        },
        h(
          "p",
          {},
          h(
            "strong",
            {},
            `${attempt.stepId} · attempt ${attempt.attempt} · ${attempt.passed ? "passed" : "refused"}`,
          ),
          ` · ${commitText(attempt)}${attempt.time === null ? "" : ` · ${formatTime(attempt.time)}`}`,
        ),
        h(
          "table",
          { class: "ledger-table" },
          h(
            "tr",
            {},
            h("th", {}, "validator"),
            h("th", {}, "result"),
            h("th", {}, "command"),
            h("th", {}, "time"),
            h("th", {}, "found"),
          ),
          ...attempt.entries.map((entry) =>
            h(
              "tr",
              { class: entry.passed ? "passed" : "failed" },
              h("td", {}, entry.validator),
              h(
                "td",
                {},
                `${entry.passed ? "✓ passed" : "✗ failed"} (${entry.timedOut ? "timed out" : `exit ${entry.exitCode ?? "none"}`})`,
              ),
              h("td", { class: "mono" }, entry.command),
              h("td", {}, formatDuration(entry.durationMs)),
              h("td", { class: "mono", title: entry.digest }, entry.findings),
            ),
          ),
        ),
      ),
    ),
    ledger.some((attempt) => attempt.passed && attempt.commit !== null)
      ? h("p", { class: "muted" }, "Re-check: ", h("code", {}, `climpt verify ${runId}`))
      : null,
  );
}
