import {
  addTokens,
  count,
  flag,
  isRecord,
  json,
  record,
  text,
  tokensOf,
} from "./journal-fields.ts";
import {
  type EventOf,
  type JournalFold,
  type OpenTool,
  replyText,
  toolSummary,
} from "./journal-fold.ts";
import type { ModelCallView, ValidatorView } from "./view-model.ts";

/**
 * The events of the calls made inside a step: model calls, tool calls (and refusals) and the
 * validators of a closing step. Each opens or closes a span on the page's time axis and adds a
 * row to its step's panel.
 */

/** A model call starts: a running span under its step until its response arrives. */
export function applyModelRequest(
  fold: JournalFold,
  event: EventOf<"model_request">,
  now: number,
): void {
  const step = fold.stepFor(count(event.iteration), text(event.stepId));
  const phase = event.phase === "check" ? "check" : "step";
  const call = count(event.call) ?? 0;
  const repair = flag(event.repair);
  const tags = repair ? ["repair"] : [];
  const span = fold.span({
    kind: "model",
    label: `${phase === "check" ? "check call" : "model call"} ${call}${repair ? " (repair turn)" : ""} · ${text(event.model) ?? ""}`,
    startMs: now,
    durationMs: 0,
    status: "running",
    depth: 1,
    stepIndex: step?.index ?? -1,
    tags,
  });
  fold.openCalls.set(`${event.iteration}:${phase}:${call}`, { span, repair });
}

/** A model call ends: its span closes and the step gets the reply, its tokens and cost. */
export function applyModelResponse(
  fold: JournalFold,
  event: EventOf<"model_response">,
  now: number,
): void {
  const step = fold.stepFor(count(event.iteration), text(event.stepId));
  const phase = event.phase === "check" ? "check" : "step";
  const call = count(event.call) ?? 0;
  const key = `${event.iteration}:${phase}:${call}`;
  const open = fold.openCalls.get(key);
  fold.openCalls.delete(key);
  const replayed = flag(event.replayed);
  const tokens = tokensOf(event.usage);
  const costUsd = count(event.costUsd) ?? 0;
  const durationMs = count(event.durationMs) ?? (open === undefined ? 0 : now - open.span.startMs);
  if (open !== undefined) {
    open.span.durationMs = Math.max(durationMs, now - open.span.startMs);
    open.span.status = "ok";
    if (replayed) open.span.tags.push("replayed");
  }
  if (isRecord(event.totals)) {
    fold.tokens = tokensOf(event.totals);
    fold.costUsd = count(event.totals.costUsd) ?? fold.costUsd;
  }
  if (step === null) return;
  const view: ModelCallView = {
    phase,
    call,
    model: text(event.model) ?? "",
    repair: open?.repair ?? false,
    replayed,
    stopReason: text(event.stopReason),
    tokens,
    costUsd,
    durationMs,
    text: replyText(event.content),
  };
  step.modelCalls = [...step.modelCalls, view];
  // A reply served from the journal was paid for when it was made.
  if (!replayed) {
    step.tokens = addTokens(step.tokens, tokens);
    step.costUsd += costUsd;
  }
}

/** A tool call starts: a running span, and a call in its step waiting for its result. */
export function applyToolCall(fold: JournalFold, event: EventOf<"tool_call">, now: number): void {
  const step = fold.stepFor(count(event.iteration), text(event.stepId));
  const call = record(event.call);
  const name = text(call.name) ?? "?";
  const view: OpenTool["view"] = {
    name,
    input: json(call.input),
    output: null,
    isError: false,
    durationMs: null,
    replayed: false,
    interrupted: false,
    refused: null,
  };
  const span = fold.span({
    kind: "tool",
    label: `${name} ${toolSummary(view.input)}`.trim(),
    startMs: now,
    durationMs: 0,
    status: "running",
    depth: 1,
    stepIndex: step?.index ?? -1,
  });
  if (step !== null) step.toolCalls = [...step.toolCalls, view];
  fold.openTools.set(text(call.id) ?? `${fold.spans.length}`, { span, view });
}

/** A tool call ends: the waiting call gets its output, duration and error flag. */
export function applyToolResult(
  fold: JournalFold,
  event: EventOf<"tool_result">,
  now: number,
): void {
  const call = record(event.call);
  const result = record(event.result);
  const id = text(call.id);
  const open = id === null ? undefined : fold.openTools.get(id);
  if (id !== null) fold.openTools.delete(id);
  if (open === undefined) return;
  const isError = flag(result.isError);
  const durationMs = count(event.durationMs) ?? now - open.span.startMs;
  open.view.output = text(result.content);
  open.view.isError = isError;
  open.view.durationMs = durationMs;
  open.view.replayed = flag(event.replayed);
  open.view.interrupted = flag(event.interrupted);
  open.span.durationMs = Math.max(durationMs, 0);
  open.span.status = isError ? "error" : "ok";
  if (open.view.replayed) open.span.tags.push("replayed");
  if (open.view.interrupted) open.span.tags.push("interrupted");
}

/** A tool call the runner refused: marks the waiting call, or adds one when none is waiting. */
export function applyToolRefused(fold: JournalFold, event: EventOf<"tool_refused">): void {
  const step = fold.stepFor(count(event.iteration), text(event.stepId));
  const name = text(event.tool) ?? "?";
  const reason = text(event.reason) ?? "refused";
  // The refused call was journaled as a tool_call first when the runner asked the tool; mark it.
  const pending = step?.toolCalls.at(-1);
  if (step !== null && pending !== undefined && pending.name === name && pending.output === null) {
    (pending as OpenTool["view"]).refused = reason;
  } else if (step !== null) {
    step.toolCalls = [
      ...step.toolCalls,
      {
        name,
        input: null,
        output: null,
        isError: true,
        durationMs: null,
        replayed: false,
        interrupted: false,
        refused: reason,
      },
    ];
  }
}

/** A validator ran after a closing step: a span on the time axis and a row in the step's panel. */
export function applyValidator(fold: JournalFold, event: EventOf<"validator">, now: number): void {
  const step = fold.stepFor(count(event.iteration), text(event.stepId));
  const durationMs = count(event.durationMs) ?? 0;
  const view: ValidatorView = {
    name: text(event.validator) ?? "?",
    command: text(event.command) ?? "",
    exitCode: count(event.exitCode),
    passed: flag(event.passed),
    timedOut: flag(event.timedOut),
    durationMs,
    output: text(event.output) ?? "",
  };
  fold.span({
    kind: "validator",
    label: `validator ${view.name}: ${view.passed ? "passed" : "failed"}${view.exitCode === null ? "" : ` (exit ${view.exitCode})`}`,
    startMs: Math.max(0, now - durationMs),
    durationMs,
    status: view.passed ? "ok" : "error",
    depth: 1,
    stepIndex: step?.index ?? -1,
  });
  if (step !== null) step.validators = [...step.validators, view];
}
