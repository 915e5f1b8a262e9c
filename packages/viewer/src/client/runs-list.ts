import type { RunStatus, RunSummary } from "../view-model.ts";
import { fill, h } from "./dom.ts";
import { formatArgs, formatCost, formatCount, formatDuration, formatTime } from "./format.ts";
import { createVirtualList } from "./virtual-list.ts";

const ROW_HEIGHT = 30;
const MAX_VISIBLE_ROWS = 10;
const COLUMNS = [
  "Run",
  "Agent",
  "Parameters",
  "Status",
  "Iter.",
  "Tokens in / out",
  "Cache read / write",
  "Cost",
  "Started",
  "Duration",
];

export interface RunsList {
  readonly element: HTMLElement;
  update(runs: readonly RunSummary[], selectedRunId: string | null): void;
}

/** Every status a run can have, for the filter (a status added to the vocabulary fails here). */
const STATUSES: Readonly<Record<RunStatus, true>> = {
  completed: true,
  failed: true,
  interrupted: true,
  unfinished: true,
};

function statusText(run: RunSummary): string {
  if (run.status === "failed") {
    // The list shows the run-level outcome; the run's own page shows the specific code beside it.
    const outcome = run.errorFamily ?? run.errorCode;
    return outcome === null ? "failed" : `failed · ${outcome}`;
  }
  if (run.status === "interrupted") {
    return run.errorCode === null ? "interrupted" : `interrupted · ${run.errorCode}`;
  }
  if (run.status === "unfinished")
    return run.currentStepId === null ? "running" : `running · ${run.currentStepId}`;
  return run.resumes > 0 ? `completed (resumed ×${run.resumes})` : "completed";
}

/** The runs table: filter by agent and status, click a row to open the run. */
export function createRunsList(onSelect: (runId: string) => void): RunsList {
  let runs: readonly RunSummary[] = [];
  let shown: readonly RunSummary[] = [];
  let selected: string | null = null;
  const agentFilter = h("select", { "aria-label": "Filter by agent", "data-filter": "agent" });
  const statusFilter = h("select", { "aria-label": "Filter by status", "data-filter": "status" });
  const countLabel = h("span", { class: "muted" });

  const list = createVirtualList({
    className: "runs-rows",
    rowHeight: ROW_HEIGHT,
    renderRow(index) {
      const run = shown[index] as RunSummary;
      const row = h(
        "div",
        {
          class: `run-row status-${run.status}${run.runId === selected ? " selected" : ""}`,
          role: "row",
          "data-run-id": run.runId,
          title: run.errorMessage ?? "",
        },
        h("span", { class: "mono" }, run.runId),
        h("span", {}, run.agent),
        h("span", { class: "mono" }, formatArgs(run.args)),
        h("span", { class: `badge status-${run.status}` }, statusText(run)),
        h("span", { class: "num" }, String(run.iterations)),
        h(
          "span",
          { class: "num" },
          `${formatCount(run.tokens.input)} / ${formatCount(run.tokens.output)}`,
        ),
        h(
          "span",
          { class: "num" },
          `${formatCount(run.tokens.cacheRead)} / ${formatCount(run.tokens.cacheWrite)}`,
        ),
        h("span", { class: "num" }, formatCost(run.costUsd)),
        h("span", {}, formatTime(run.startedAt)),
        h("span", { class: "num" }, formatDuration(run.durationMs)),
      );
      row.addEventListener("click", () => onSelect(run.runId));
      return row;
    },
  });

  const applyFilters = () => {
    const agent = agentFilter.value;
    const status = statusFilter.value;
    shown = runs.filter(
      (run) => (agent === "" || run.agent === agent) && (status === "" || run.status === status),
    );
    list.element.style.height = `${Math.max(1, Math.min(shown.length, MAX_VISIBLE_ROWS)) * ROW_HEIGHT}px`;
    list.setCount(shown.length);
    countLabel.textContent =
      shown.length === runs.length
        ? `${runs.length} run${runs.length === 1 ? "" : "s"}`
        : `${shown.length} of ${runs.length} runs`;
  };
  agentFilter.addEventListener("change", applyFilters);
  statusFilter.addEventListener("change", applyFilters);

  const setOptions = (select: HTMLSelectElement, label: string, values: readonly string[]) => {
    const current = select.value;
    fill(
      select,
      h("option", { value: "" }, `${label}: all`),
      ...values.map((value) => h("option", { value }, value)),
    );
    select.value = values.includes(current) ? current : "";
  };

  const element = h(
    "section",
    { id: "runs", "aria-label": "Runs" },
    h("div", { class: "section-head" }, h("h2", {}, "Runs"), agentFilter, statusFilter, countLabel),
    h(
      "div",
      { class: "run-row header", role: "row" },
      ...COLUMNS.map((column) => h("span", {}, column)),
    ),
    list.element,
  );

  return {
    element,
    update(next, selectedRunId) {
      runs = next;
      selected = selectedRunId;
      setOptions(agentFilter, "agent", [...new Set(runs.map((run) => run.agent))].sort());
      setOptions(statusFilter, "status", Object.keys(STATUSES));
      applyFilters();
    },
  };
}
