import type { StepView } from "../view-model.ts";
import { fill, h } from "./dom.ts";
import { formatCost, formatCount, formatDuration, formatJson, formatTokens } from "./format.ts";
import { handoffDiff } from "./handoff-diff.ts";

/** Longer texts start folded: a tool's output can be megabytes. */
const FOLD_AT = 4000;

function block(title: string, section: string, ...content: (Node | string | null)[]): HTMLElement {
  return h(
    "div",
    { class: "panel-block", "data-section": section },
    h("h3", {}, title),
    ...content,
  );
}

function pre(text: string, className = ""): HTMLElement {
  if (text.length <= FOLD_AT) return h("pre", { class: className }, text);
  return h(
    "details",
    {},
    h(
      "summary",
      {},
      `${text.slice(0, 200).replace(/\s+/g, " ")}… (${formatCount(text.length)} characters)`,
    ),
    h("pre", { class: className }, text),
  );
}

function promptSourceText(step: StepView): string {
  if (step.promptSource === "retry") return "the validation retry prompt";
  if (step.promptFile !== null) return step.promptFile;
  return step.promptSource ?? "unknown source";
}

function handoffBlock(steps: readonly StepView[], index: number): HTMLElement {
  const changes = handoffDiff(steps, index);
  const changed = changes.filter((change) => change.kind !== "same");
  const same = changes.filter((change) => change.kind === "same");
  const row = (change: (typeof changes)[number]) =>
    h(
      "tr",
      { class: `diff-${change.kind}` },
      h("td", { class: "mono" }, change.path),
      h("td", {}, change.kind),
      h("td", {}, change.before === undefined ? "" : pre(formatJson(change.before), "diff-old")),
      h("td", {}, change.after === undefined ? "" : pre(formatJson(change.after), "diff-new")),
    );
  const head = h(
    "tr",
    {},
    h("th", {}, "value"),
    h("th", {}, ""),
    h("th", {}, "before"),
    h("th", {}, "after"),
  );
  return block(
    "Handoff before → after",
    "handoff",
    changed.length === 0
      ? h("p", { class: "muted" }, "This step changed nothing in the handoff.")
      : h("table", { class: "diff" }, head, ...changed.map(row)),
    same.length === 0
      ? null
      : h(
          "details",
          {},
          h(
            "summary",
            {},
            `${same.length} unchanged value${same.length === 1 ? "" : "s"} the step received`,
          ),
          h("table", { class: "diff" }, head.cloneNode(true), ...same.map(row)),
        ),
  );
}

/** Everything about one step execution. */
export function renderStepPanel(
  target: HTMLElement,
  steps: readonly StepView[],
  index: number | null,
): void {
  const step = index === null ? undefined : steps[index];
  if (step === undefined || index === null) {
    fill(target, h("p", { class: "muted" }, "Select a step in the flow or the timeline."));
    return;
  }
  const badges: HTMLElement[] = [];
  if (step.retry) badges.push(h("span", { class: "chip chip-retry" }, "retry prompt"));
  if (step.resumed) badges.push(h("span", { class: "chip chip-resumed" }, "resumed"));
  if (step.inheritedFrom !== null)
    badges.push(
      h(
        "span",
        { class: "chip chip-resumed", id: "step-inherited" },
        `from ${step.inheritedFrom}: not run in this fork`,
      ),
    );
  if (step.running) badges.push(h("span", { class: "chip chip-running" }, "running"));
  if (step.error !== null) badges.push(h("span", { class: "chip chip-error" }, step.error.code));

  const blocks: (HTMLElement | null)[] = [
    h(
      "div",
      { class: "panel-head" },
      h("h2", { "data-section": "title" }, `[${step.iteration}] ${step.stepId}`),
      ...badges,
      h(
        "p",
        { class: "muted" },
        `${step.stepKind} step · ${step.model} · ${formatDuration(step.durationMs)} · ${formatTokens(step.tokens)} · ${formatCost(step.costUsd)}`,
      ),
    ),
    step.error === null
      ? null
      : block(
          "Error",
          "error",
          h("p", { class: "error-text" }, `${step.error.code}: ${step.error.message}`),
        ),
    block(
      "Prompt",
      "prompt",
      h("p", { class: "muted" }, `from ${promptSourceText(step)}`),
      step.prompt === null
        ? h("p", { class: "muted" }, "Not recorded.")
        : pre(step.prompt, "prompt-text"),
    ),
    step.checkPrompt === null
      ? null
      : block("Check prompt", "check-prompt", pre(step.checkPrompt, "prompt-text")),
    block(
      "Structured output",
      "output",
      h(
        "p",
        { class: "intent" },
        h("strong", {}, step.intent ?? "no intent"),
        step.target === null ? "" : ` → ${step.target}`,
        step.transition === null ? "" : ` · went to ${step.transition}`,
        step.reason === null ? "" : ` · “${step.reason}”`,
      ),
      step.output === null
        ? h("p", { class: "muted" }, "None recorded.")
        : pre(formatJson(step.output)),
    ),
    step.check === null
      ? null
      : block(
          "Check",
          "check",
          h("p", {}, `${step.check.passed ? "passed" : "failed"}: ${step.check.message}`),
        ),
    handoffBlock(steps, index),
    step.toolCalls.length === 0
      ? null
      : block(
          `Tool calls (${step.toolCalls.length})`,
          "tools",
          ...step.toolCalls.map((call) =>
            h(
              "div",
              { class: `tool-call${call.isError ? " is-error" : ""}` },
              h(
                "p",
                {},
                h("strong", {}, call.name),
                call.durationMs === null ? "" : ` · ${formatDuration(call.durationMs)}`,
                call.refused === null ? "" : ` · refused: ${call.refused}`,
                call.replayed ? " · served from the journal" : "",
                call.interrupted ? " · interrupted" : "",
                call.isError ? " · error" : "",
              ),
              pre(formatJson(call.input), "tool-input"),
              call.output === null ? null : pre(call.output, "tool-output"),
            ),
          ),
        ),
    block(
      `Model calls (${step.modelCalls.length})`,
      "model-calls",
      ...step.modelCalls.map((call) =>
        h(
          "details",
          { class: "model-call" },
          h(
            "summary",
            {},
            `${call.phase === "check" ? "check call" : "call"} ${call.call}${call.repair ? " (repair turn)" : ""}${call.replayed ? " (from the journal)" : ""} · ${call.stopReason ?? "?"} · ${formatDuration(call.durationMs)} · ${formatTokens(call.tokens)} · ${formatCost(call.costUsd)}`,
          ),
          call.text === ""
            ? h("p", { class: "muted" }, "No text (tool use only).")
            : pre(call.text),
        ),
      ),
    ),
    step.changes === null
      ? null
      : block(
          `Files changed (${step.changes.files.length}${step.changes.truncated ? "+" : ""})`,
          "changes",
          step.changes.files.length === 0
            ? h("p", { class: "muted" }, "This step changed no file.")
            : h(
                "table",
                { class: "diff-stat" },
                ...step.changes.files.map((file) =>
                  h(
                    "tr",
                    {},
                    h("td", { class: "mono" }, file.path),
                    h("td", { class: "added" }, file.added === null ? "bin" : `+${file.added}`),
                    h("td", { class: "removed" }, file.removed === null ? "" : `−${file.removed}`),
                  ),
                ),
              ),
        ),
    step.validators.length === 0
      ? null
      : block(
          "Validators",
          "validators",
          ...step.validators.map((validator) =>
            h(
              "div",
              { class: `validator ${validator.passed ? "passed" : "failed"}` },
              h(
                "p",
                {},
                h("strong", {}, `${validator.passed ? "✓" : "✗"} ${validator.name}`),
                ` · ${validator.command} · exit ${validator.exitCode ?? "none"}${validator.timedOut ? " (timed out)" : ""} · ${formatDuration(validator.durationMs)}`,
              ),
              validator.output === "" ? null : pre(validator.output, "validator-output"),
            ),
          ),
        ),
    step.verdict === null
      ? null
      : block(
          "Verdict",
          "verdict",
          h(
            "p",
            {},
            h("strong", {}, step.verdict.outcome),
            ` · ${step.verdict.reason}`,
            step.verdict.failurePattern === null
              ? ""
              : ` · failure pattern ${step.verdict.failurePattern}`,
            step.verdict.returnStepId === null ? "" : ` · back to ${step.verdict.returnStepId}`,
          ),
        ),
    step.retryPrompt === null
      ? null
      : block("Retry prompt that followed", "retry-prompt", pre(step.retryPrompt, "prompt-text")),
  ];
  fill(target, ...blocks);
}
