import type { SpanView } from "../view-model.ts";
import { h } from "./dom.ts";
import { formatDuration } from "./format.ts";
import { createVirtualList } from "./virtual-list.ts";

const ROW_HEIGHT = 24;

const TAG_TEXT: Readonly<Record<string, string>> = {
  retry: "retry prompt",
  repair: "repair turn",
  replayed: "from journal",
  resumed: "resumed",
  interrupted: "interrupted",
};

export interface TimelineView {
  readonly element: HTMLElement;
  update(spans: readonly SpanView[], totalMs: number, selectedStep: number | null): void;
  revealStep(stepIndex: number): void;
}

/**
 * The waterfall: every step, model call, tool call, validator, the boundary hook and each resume
 * as a bar on one time axis. Retry prompts, repair turns and parts served from the journal on
 * resume carry a tag of their own. Only the rows in view exist in the page.
 */
export function createTimeline(onSelectStep: (stepIndex: number) => void): TimelineView {
  let spans: readonly SpanView[] = [];
  let total = 1;
  let selected: number | null = null;
  const axis = h("span", { class: "muted" });

  const list = createVirtualList({
    className: "timeline-rows",
    rowHeight: ROW_HEIGHT,
    renderRow(index) {
      const span = spans[index] as SpanView;
      const left = (span.startMs / total) * 100;
      const width = Math.max((span.durationMs / total) * 100, 0.25);
      const classes = [
        "span-row",
        `kind-${span.kind}`,
        `status-${span.status}`,
        `depth-${span.depth}`,
        ...span.tags.map((tag) => `tag-${tag}`),
      ];
      if (span.stepIndex >= 0 && span.stepIndex === selected) classes.push("selected-step");
      const row = h(
        "div",
        {
          class: classes.join(" "),
          "data-kind": span.kind,
          "data-status": span.status,
          "data-step-index": span.stepIndex,
          title: `${span.label} · ${formatDuration(span.durationMs)}`,
        },
        h(
          "span",
          { class: "span-label" },
          h("span", { class: "span-name" }, span.label),
          ...span.tags.map((tag) => h("span", { class: `chip chip-${tag}` }, TAG_TEXT[tag] ?? tag)),
        ),
        h(
          "span",
          { class: "span-track" },
          h("span", {
            class: "span-bar",
            style: `left:${Math.min(left, 99.75).toFixed(3)}%;width:${Math.min(width, 100 - Math.min(left, 99.75)).toFixed(3)}%`,
          }),
        ),
        h(
          "span",
          { class: "span-duration num" },
          span.status === "running" ? "running…" : formatDuration(span.durationMs),
        ),
      );
      if (span.stepIndex >= 0) {
        const stepIndex = span.stepIndex;
        row.addEventListener("click", () => onSelectStep(stepIndex));
      }
      return row;
    },
  });

  const element = h(
    "section",
    { id: "timeline", "aria-label": "Timeline" },
    h("div", { class: "section-head" }, h("h2", {}, "Timeline"), axis),
    list.element,
  );

  return {
    element,
    update(next, totalMs, selectedStep) {
      spans = next;
      total = Math.max(totalMs, 1);
      selected = selectedStep;
      axis.textContent = `${spans.length} spans · ${formatDuration(totalMs)} from the first event to the last`;
      list.setCount(spans.length);
    },
    revealStep(stepIndex) {
      const index = spans.findIndex((span) => span.kind === "step" && span.stepIndex === stepIndex);
      if (index >= 0) list.reveal(index);
    },
  };
}
