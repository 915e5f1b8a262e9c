import { adaptJournal } from "../journal-adapter.ts";
import type { PageData, RunDetail, RunSource, RunSummary } from "../view-model.ts";
import { fill, h } from "./dom.ts";
import { createFlowGraph } from "./flow-graph.ts";
import { formatCost, formatDuration, formatTime, formatTokens } from "./format.ts";
import { renderLedger } from "./ledger-panel.ts";
import { lineageSection } from "./lineage.ts";
import { createRunsList } from "./runs-list.ts";
import { renderStepPanel } from "./step-panel.ts";
import { createTimeline } from "./timeline.ts";

/** The page's data, embedded by the generator as JSON (never as script). */
function readPageData(): PageData {
  const element = document.getElementById("climpt-view-data");
  return JSON.parse(element?.textContent ?? "{}") as PageData;
}

interface State {
  runs: readonly RunSummary[];
  readonly sources: Map<string, RunSource>;
  readonly details: Map<string, RunDetail>;
  selectedRunId: string | null;
  selectedStep: number | null;
  /** The reader picked a step: a live update no longer moves the selection to the current step. */
  pickedStep: boolean;
}

function detailOf(state: State, runId: string): RunDetail | null {
  const cached = state.details.get(runId);
  if (cached !== undefined) return cached;
  const source = state.sources.get(runId);
  if (source === undefined) return null;
  const detail = adaptJournal(source.events, source.declaredFlow, runId);
  const withNotices: RunDetail = { ...detail, notices: [...source.notices, ...detail.notices] };
  state.details.set(runId, withNotices);
  return withNotices;
}

/** The step to show when the reader has not picked one: where it failed, or where it is now. */
function defaultStep(detail: RunDetail): number | null {
  if (detail.steps.length === 0) return null;
  if (detail.summary.status === "completed") return 0;
  return detail.steps.length - 1;
}

function boot(): void {
  const data = readPageData();
  const state: State = {
    runs: data.runs,
    sources: new Map(Object.entries(data.sources)),
    details: new Map(),
    selectedRunId: data.selectedRunId ?? data.runs[0]?.runId ?? null,
    selectedStep: null,
    pickedStep: false,
  };
  const app = document.getElementById("app") as HTMLElement;
  const liveBadge = h(
    "span",
    { class: "live-badge", id: "live-status" },
    data.mode === "live" ? "connecting…" : "",
  );
  const runHead = h("section", { id: "run-head", "aria-label": "Run" });
  const panel = h("section", { id: "step-panel", "aria-label": "Step" });
  const notices = h("section", { id: "notices", "aria-label": "Notices" });
  const ledger = h("section", { id: "ledger", "aria-label": "Completion ledger" });

  let render = () => {};
  const selectStep = (index: number, reveal: boolean) => {
    state.selectedStep = index;
    state.pickedStep = true;
    render();
    if (reveal) timeline.revealStep(index);
  };
  const openRun = (runId: string) => {
    if (runId === state.selectedRunId) return;
    state.selectedRunId = runId;
    state.selectedStep = null;
    state.pickedStep = false;
    render();
    live?.follow(runId);
  };
  const runs = createRunsList(openRun);
  const graph = createFlowGraph((stepId) => {
    const detail = state.selectedRunId === null ? null : detailOf(state, state.selectedRunId);
    const last = detail?.steps.findLastIndex((step) => step.stepId === stepId) ?? -1;
    if (last >= 0) selectStep(last, true);
  });
  const timeline = createTimeline((index) => selectStep(index, false));
  const runView = h(
    "div",
    { id: "run-view" },
    runHead,
    h("div", { class: "columns" }, graph.element, panel),
    timeline.element,
    ledger,
    notices,
  );
  fill(
    app,
    h(
      "header",
      { class: "top" },
      h("h1", {}, "climpt run viewer"),
      h(
        "span",
        { class: "muted" },
        data.mode === "live"
          ? "live from the project's journals"
          : `generated ${formatTime(data.generatedAt)}`,
      ),
      liveBadge,
    ),
    runs.element,
    runView,
  );

  render = () => {
    const selected = state.selectedRunId;
    const detail = selected === null ? null : detailOf(state, selected);
    const summaries = state.runs.map((run) =>
      detail !== null && run.runId === selected ? detail.summary : run,
    );
    runs.update(summaries, selected);
    if (detail === null) {
      runView.hidden = selected === null;
      fill(
        runHead,
        h("p", { class: "muted" }, selected === null ? "No runs." : "Loading the run…"),
      );
      return;
    }
    runView.hidden = false;
    if (!state.pickedStep) state.selectedStep = defaultStep(detail);
    const summary = detail.summary;
    const current = summary.currentStepId;
    fill(
      runHead,
      h(
        "div",
        { class: "run-title" },
        h("h2", {}, summary.runId),
        h("span", { class: `badge status-${summary.status}`, id: "run-status" }, summary.status),
        summary.errorCode === null
          ? null
          : h(
              "span",
              { class: "chip chip-error" },
              summary.errorFamily === null
                ? summary.errorCode
                : `${summary.errorCode} (${summary.errorFamily})`,
            ),
      ),
      summary.errorMessage === null ? null : h("p", { class: "error-text" }, summary.errorMessage),
      h(
        "p",
        {},
        h(
          "span",
          { id: "current-step", "data-step-id": current ?? "" },
          summary.status === "unfinished"
            ? `Current step: ${current ?? "starting"}`
            : `Ended at: ${current ?? "–"}`,
        ),
        ` · agent ${summary.agent} · ${summary.iterations} iteration${summary.iterations === 1 ? "" : "s"} · ${formatTokens(summary.tokens)} · ${formatCost(summary.costUsd)} · started ${formatTime(summary.startedAt)} · ${formatDuration(summary.durationMs)}${summary.resumes > 0 ? ` · resumed ${summary.resumes}×` : ""}`,
      ),
      lineageSection(summary, summaries, (runId) => detailOf(state, runId), openRun),
    );
    graph.update(detail.flow);
    timeline.update(detail.spans, summary.durationMs, state.selectedStep);
    renderStepPanel(panel, detail.steps, state.selectedStep);
    renderLedger(ledger, detail.ledger, summary.runId);
    fill(
      notices,
      ...(detail.notices.length === 0
        ? []
        : [
            h("h3", {}, "Notices"),
            h("ul", {}, ...detail.notices.map((notice) => h("li", {}, notice))),
          ]),
    );
  };

  const live = data.mode === "live" ? connectLive(state, liveBadge, () => render()) : null;
  render();
  // For the first-paint benchmark: the moment the whole run is on the page.
  performance.mark("climpt-view-rendered");
  if (state.selectedRunId !== null) live?.follow(state.selectedRunId);
  else live?.follow(null);
}

interface LiveConnection {
  follow(runId: string | null): void;
}

/**
 * Server-sent events from `climpt view --serve`: the runs list whenever a journal changes, the
 * followed run's journal once, then each new event as the run appends it. Redraws at most once
 * per frame, however fast events arrive.
 */
function connectLive(state: State, badge: HTMLElement, redraw: () => void): LiveConnection {
  let source: EventSource | null = null;
  let pending = false;
  const schedule = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      redraw();
    });
  };
  const connection: LiveConnection = {
    follow(runId) {
      source?.close();
      const known = runId === null ? undefined : state.sources.get(runId);
      const query =
        runId === null ? "" : `?run=${encodeURIComponent(runId)}&from=${known?.events.length ?? 0}`;
      const events = new EventSource(`/api/live${query}`);
      source = events;
      events.addEventListener("open", () => {
        badge.textContent = "● live";
        badge.className = "live-badge connected";
      });
      events.addEventListener("error", () => {
        badge.textContent = "reconnecting…";
        badge.className = "live-badge";
      });
      events.addEventListener("runs", (message) => {
        state.runs = JSON.parse((message as MessageEvent<string>).data) as RunSummary[];
        if (state.selectedRunId === null && state.runs[0] !== undefined) {
          state.selectedRunId = state.runs[0].runId;
          connection.follow(state.selectedRunId);
        }
        schedule();
      });
      events.addEventListener("source", (message) => {
        const run = JSON.parse((message as MessageEvent<string>).data) as RunSource;
        state.sources.set(run.runId, run);
        state.details.delete(run.runId);
        schedule();
      });
      events.addEventListener("events", (message) => {
        const delta = JSON.parse((message as MessageEvent<string>).data) as {
          runId: string;
          from: number;
          events: unknown[];
        };
        const known = state.sources.get(delta.runId);
        // A delta that does not continue what the page holds means it missed one: start over.
        if (known === undefined || known.events.length !== delta.from) {
          state.sources.delete(delta.runId);
          connection.follow(delta.runId);
          return;
        }
        state.sources.set(delta.runId, { ...known, events: [...known.events, ...delta.events] });
        state.details.delete(delta.runId);
        schedule();
      });
    },
  };
  return connection;
}

boot();
