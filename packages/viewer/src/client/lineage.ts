import type { RunDetail, RunSummary, StepView } from "../view-model.ts";
import { h } from "./dom.ts";
import { formatCost } from "./format.ts";

type Child = Node | string | null | undefined | false;

/**
 * Forks on the page (`climpt fork`): the run a fork came from and the forks of a run, as links
 * that open that run, and, where both runs' journals are on the page, the two side by side from
 * the iteration where they diverge — each execution's step, where the flow went, its cost and
 * outcome.
 */
export function lineageSection(
  summary: RunSummary,
  runs: readonly RunSummary[],
  detailOf: (runId: string) => RunDetail | null,
  open: (runId: string) => void,
): HTMLElement | null {
  const link = (runId: string): HTMLElement => {
    const button = h("button", { class: "run-link", type: "button", "data-run-id": runId }, runId);
    button.addEventListener("click", () => open(runId));
    return button;
  };
  const parts: Child[] = [];
  const origin = summary.forkedFrom;
  if (origin !== null) {
    parts.push(
      h(
        "p",
        { id: "forked-from" },
        "Forked from ",
        link(origin.runId),
        ` at [${origin.iteration}] ${origin.stepId}: the steps before are that run's, copied from its journal, not run again.`,
      ),
    );
  }
  const forks = runs.filter((run) => run.forkedFrom?.runId === summary.runId);
  if (forks.length > 0) {
    parts.push(
      h(
        "p",
        { id: "forks" },
        `Forks (${forks.length}): `,
        ...forks.flatMap((fork, index) => [
          index === 0 ? null : ", ",
          link(fork.runId),
          ` from [${fork.forkedFrom?.iteration ?? "?"}] ${fork.forkedFrom?.stepId ?? ""}`,
        ]),
      ),
    );
  }
  if (origin !== null) {
    const source = detailOf(origin.runId);
    const fork = detailOf(summary.runId);
    if (source !== null && fork !== null) parts.push(divergence(source, fork, origin.iteration));
  }
  return parts.length === 0 ? null : h("div", { id: "lineage" }, ...parts);
}

function cell(step: StepView | undefined): Child[] {
  if (step === undefined) return [h("td", { class: "muted" }, "–"), h("td", {}), h("td", {})];
  const outcome = step.error?.code ?? step.transition ?? (step.running ? "running" : "–");
  return [
    h("td", {}, step.stepId),
    h("td", { class: step.error === null ? "" : "error-text" }, outcome),
    h("td", {}, formatCost(step.costUsd)),
  ];
}

/** The source and the fork, execution by execution, from the iteration the fork started at. */
function divergence(source: RunDetail, fork: RunDetail, from: number): HTMLElement {
  const after = (detail: RunDetail) => detail.steps.filter((step) => step.iteration >= from);
  const left = after(source);
  const right = after(fork);
  const rows: HTMLElement[] = [];
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const a = left[index];
    const b = right[index];
    const same =
      a !== undefined && b !== undefined && a.stepId === b.stepId && a.transition === b.transition;
    rows.push(
      h(
        "tr",
        {
          class: same ? "same" : "diverged",
          "data-iteration": String(b?.iteration ?? a?.iteration ?? ""),
        },
        h("td", {}, String(b?.iteration ?? a?.iteration ?? "")),
        ...cell(a),
        ...cell(b),
      ),
    );
  }
  return h(
    "table",
    { id: "fork-compare", class: "compare" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, "#"),
        h(
          "th",
          { colspan: "3" },
          `source ${source.summary.runId} (${source.summary.status}, ${formatCost(source.summary.costUsd)})`,
        ),
        h(
          "th",
          { colspan: "3" },
          `fork ${fork.summary.runId} (${fork.summary.status}, ${formatCost(fork.summary.costUsd)})`,
        ),
      ),
    ),
    h("tbody", {}, ...rows),
  );
}
