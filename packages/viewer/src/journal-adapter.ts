import type { RunEvent, RunEventType } from "@climpt/runner";
import { buildFlowView, type TakenPath } from "./flow-view.ts";
import {
  addTokens,
  count,
  type Fields,
  flag,
  isRecord,
  json,
  jsonRecord,
  NO_TOKENS,
  record,
  text,
  timeOf,
  tokensOf,
} from "./journal-fields.ts";
import type {
  DeclaredFlow,
  ModelCallView,
  RunDetail,
  RunStatus,
  RunSummary,
  SpanView,
  StepView,
  TokenCounts,
  ToolCallView,
  ValidatorView,
  VerdictView,
  ViewJson,
} from "./view-model.ts";

/**
 * The one file that knows the journal's event shapes (the runner's `RunEvent` union): it folds a
 * journal into what the page shows. Unknown event types and fields of the wrong type are skipped,
 * never fatal, so a journal from another runner version still shows what it can.
 */

type EventOf<T extends RunEventType> = Partial<Extract<RunEvent, { type: T }>>;

/** Every event type this adapter reads; a type the runner adds shows up here at compile time. */
const KNOWN_TYPES: Readonly<Record<RunEventType, true>> = {
  run_start: true,
  run_resume: true,
  step_start: true,
  prompt_resolved: true,
  model_request: true,
  model_response: true,
  tool_call: true,
  tool_result: true,
  tool_refused: true,
  step_failed: true,
  gate: true,
  check: true,
  route: true,
  validator: true,
  verdict: true,
  boundary_hook_start: true,
  boundary_hook: true,
  step_end: true,
  notice: true,
  run_end: true,
};

type MutableStep = { -readonly [K in keyof StepView]: StepView[K] };
type MutableSpan = { -readonly [K in keyof SpanView]: SpanView[K] } & { tags: string[] };

interface OpenCall {
  readonly span: MutableSpan;
  readonly repair: boolean;
}

interface OpenTool {
  readonly span: MutableSpan;
  readonly view: { -readonly [K in keyof ToolCallView]: ToolCallView[K] };
}

class JournalFold {
  runId = "";
  agent = "";
  args: Record<string, ViewJson> = {};
  entryStepId: string | null = null;
  t0: number | null = null;
  lastTime: number | null = null;
  readonly steps: MutableStep[] = [];
  readonly spans: MutableSpan[] = [];
  readonly stepSpans = new Map<MutableStep, MutableSpan>();
  readonly openCalls = new Map<string, OpenCall>();
  readonly openTools = new Map<string, OpenTool>();
  readonly taken: TakenPath[] = [];
  readonly unknownTypes = new Map<string, number>();
  readonly notices: string[] = [];
  open: MutableStep | null = null;
  resumedPending = false;
  resumes = 0;
  tokens: TokenCounts = NO_TOKENS;
  costUsd = 0;
  hookSpan: MutableSpan | null = null;
  boundaryHook: RunDetail["boundaryHook"] = null;
  end: {
    success: boolean;
    code: string | null;
    message: string | null;
    iterations: number;
  } | null = null;

  /** Milliseconds from the run's first event. */
  at(time: number | null): number {
    if (time === null || this.t0 === null)
      return this.lastTime === null ? 0 : this.ms(this.lastTime);
    return time - this.t0;
  }

  private ms(time: number): number {
    return this.t0 === null ? 0 : time - this.t0;
  }

  span(span: Omit<MutableSpan, "tags"> & { tags?: string[] }): MutableSpan {
    const created: MutableSpan = { ...span, tags: span.tags ?? [] };
    this.spans.push(created);
    return created;
  }

  /** The step an event of `iteration` / `stepId` belongs to: the open one, else the last match. */
  stepFor(iteration: number | null, stepId: string | null): MutableStep | null {
    const open = this.open;
    if (open !== null && (iteration === null || open.iteration === iteration)) return open;
    for (let index = this.steps.length - 1; index >= 0; index--) {
      const step = this.steps[index] as MutableStep;
      if (
        (iteration === null || step.iteration === iteration) &&
        (stepId === null || step.stepId === stepId)
      )
        return step;
    }
    return null;
  }

  closeOpenStep(endMs: number, status: SpanView["status"]): void {
    const open = this.open;
    if (open === null) return;
    open.durationMs = Math.max(0, endMs - open.startMs);
    open.running = status === "running";
    const span = this.stepSpans.get(open);
    if (span !== undefined) {
      span.durationMs = open.durationMs;
      span.status = status;
    }
    this.open = null;
  }
}

function newStep(fold: JournalFold, event: EventOf<"step_start">, startMs: number): MutableStep {
  return {
    index: fold.steps.length,
    iteration: count(event.iteration) ?? 0,
    stepId: text(event.stepId) ?? "?",
    stepKind: text(event.stepKind) ?? "work",
    model: text(event.model) ?? "",
    retry: flag(event.retry),
    resumed: fold.resumedPending,
    promptSource: null,
    promptFile: null,
    prompt: null,
    checkPrompt: null,
    output: null,
    intent: null,
    target: null,
    reason: null,
    handoff: null,
    transition: null,
    modelCalls: [],
    toolCalls: [],
    validators: [],
    verdict: null,
    check: null,
    retryPrompt: null,
    error: null,
    tokens: NO_TOKENS,
    costUsd: 0,
    startMs,
    durationMs: 0,
    running: true,
  };
}

function replyText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (isRecord(block) && block.type === "text" && typeof block.text === "string")
      parts.push(block.text);
  }
  return parts.join("\n");
}

function stepLabel(step: MutableStep): string {
  return `[${step.iteration}] ${step.stepId}`;
}

function apply(fold: JournalFold, raw: Fields): void {
  const type = text(raw.type);
  if (type === null || !(type in KNOWN_TYPES)) {
    const name = type ?? "(no type)";
    fold.unknownTypes.set(name, (fold.unknownTypes.get(name) ?? 0) + 1);
    return;
  }
  const time = timeOf(raw.time);
  if (time !== null) {
    if (fold.t0 === null) fold.t0 = time;
    if (fold.lastTime === null || time > fold.lastTime) fold.lastTime = time;
  }
  const now = fold.at(time);
  switch (type as RunEventType) {
    case "run_start": {
      const event = raw as EventOf<"run_start">;
      fold.runId = text(event.runId) ?? fold.runId;
      fold.agent = text(event.agent) ?? fold.agent;
      fold.args = jsonRecord(event.args);
      fold.entryStepId = text(event.entryStepId);
      break;
    }
    case "run_resume": {
      const event = raw as EventOf<"run_resume">;
      // The step that was running when the run stopped ends here: it never finished.
      fold.closeOpenStep(now, "error");
      fold.resumes++;
      fold.resumedPending = true;
      fold.span({
        kind: "resume",
        label: `resumed at [${count(event.iteration) ?? "?"}] ${text(event.stepId) ?? ""} (${count(event.replayedModelCalls) ?? 0} replies from the journal)`,
        startMs: now,
        durationMs: 0,
        status: "ok",
        depth: 0,
        stepIndex: -1,
        tags: ["resumed"],
      });
      break;
    }
    case "step_start": {
      const event = raw as EventOf<"step_start">;
      if (event.phase === "check") break; // the check call belongs to the step's own iteration
      fold.closeOpenStep(now, "error");
      const step = newStep(fold, event, now);
      fold.resumedPending = false;
      fold.steps.push(step);
      fold.open = step;
      const tags: string[] = [];
      if (step.retry) tags.push("retry");
      if (step.resumed) tags.push("resumed");
      fold.stepSpans.set(
        step,
        fold.span({
          kind: "step",
          label: stepLabel(step),
          startMs: now,
          durationMs: 0,
          status: "running",
          depth: 0,
          stepIndex: step.index,
          tags,
        }),
      );
      break;
    }
    case "prompt_resolved": {
      const event = raw as EventOf<"prompt_resolved">;
      const step = fold.stepFor(count(event.iteration), text(event.stepId));
      if (step === null) break;
      if (event.phase === "check") step.checkPrompt = text(event.text);
      else {
        step.prompt = text(event.text);
        step.promptSource = text(event.source);
        step.promptFile = text(event.promptFile);
      }
      break;
    }
    case "model_request": {
      const event = raw as EventOf<"model_request">;
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
      break;
    }
    case "model_response": {
      const event = raw as EventOf<"model_response">;
      const step = fold.stepFor(count(event.iteration), text(event.stepId));
      const phase = event.phase === "check" ? "check" : "step";
      const call = count(event.call) ?? 0;
      const key = `${event.iteration}:${phase}:${call}`;
      const open = fold.openCalls.get(key);
      fold.openCalls.delete(key);
      const replayed = flag(event.replayed);
      const tokens = tokensOf(event.usage);
      const costUsd = count(event.costUsd) ?? 0;
      const durationMs =
        count(event.durationMs) ?? (open === undefined ? 0 : now - open.span.startMs);
      if (open !== undefined) {
        open.span.durationMs = Math.max(durationMs, now - open.span.startMs);
        open.span.status = "ok";
        if (replayed) open.span.tags.push("replayed");
      }
      if (isRecord(event.totals)) {
        fold.tokens = tokensOf(event.totals);
        fold.costUsd = count(event.totals.costUsd) ?? fold.costUsd;
      }
      if (step === null) break;
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
      break;
    }
    case "tool_call": {
      const event = raw as EventOf<"tool_call">;
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
      break;
    }
    case "tool_result": {
      const event = raw as EventOf<"tool_result">;
      const call = record(event.call);
      const result = record(event.result);
      const id = text(call.id);
      const open = id === null ? undefined : fold.openTools.get(id);
      if (id !== null) fold.openTools.delete(id);
      if (open === undefined) break;
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
      break;
    }
    case "tool_refused": {
      const event = raw as EventOf<"tool_refused">;
      const step = fold.stepFor(count(event.iteration), text(event.stepId));
      const name = text(event.tool) ?? "?";
      const reason = text(event.reason) ?? "refused";
      // The refused call was journaled as a tool_call first when the runner asked the tool; mark it.
      const pending = step?.toolCalls.at(-1);
      if (
        step !== null &&
        pending !== undefined &&
        pending.name === name &&
        pending.output === null
      ) {
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
      break;
    }
    case "step_failed": {
      const event = raw as EventOf<"step_failed">;
      const step = fold.stepFor(count(event.iteration), text(event.stepId));
      const error = record(event.error);
      if (step !== null)
        step.error = { code: text(error.code) ?? "?", message: text(error.message) ?? "" };
      break;
    }
    case "gate": {
      const event = raw as EventOf<"gate">;
      const step = fold.stepFor(count(event.iteration), text(event.stepId));
      if (step === null) break;
      step.intent = text(event.intent);
      step.target = text(event.target);
      step.reason = text(event.reason);
      break;
    }
    case "check": {
      const event = raw as EventOf<"check">;
      const step = fold.stepFor(count(event.iteration), text(event.stepId));
      if (step !== null)
        step.check = { passed: flag(event.passed), message: text(event.message) ?? "" };
      break;
    }
    case "route": {
      const event = raw as EventOf<"route">;
      const from = text(event.from);
      if (from === null) break;
      fold.taken.push({
        from,
        to: text(event.to),
        decision: text(event.decision) ?? "step",
        via: text(event.via),
      });
      break;
    }
    case "validator": {
      const event = raw as EventOf<"validator">;
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
      break;
    }
    case "verdict": {
      const event = raw as EventOf<"verdict">;
      const step = fold.stepFor(count(event.iteration), text(event.stepId));
      const verdict: VerdictView = {
        outcome: text(event.outcome) ?? "?",
        reason: text(event.reason) ?? "",
        failurePattern: text(event.failurePattern),
        returnStepId: text(event.returnStepId),
      };
      if (step !== null) step.verdict = verdict;
      if (verdict.outcome === "done" && step !== null)
        fold.taken.push({ from: step.stepId, to: null, decision: "done", via: null });
      break;
    }
    case "boundary_hook_start":
      fold.closeOpenStep(now, "ok");
      fold.hookSpan = fold.span({
        kind: "hook",
        label: "boundary hook",
        startMs: now,
        durationMs: 0,
        status: "running",
        depth: 0,
        stepIndex: -1,
      });
      break;
    case "boundary_hook": {
      const event = raw as EventOf<"boundary_hook">;
      const ok = flag(event.ok);
      const actions = Array.isArray(event.actions) ? event.actions.map(json) : [];
      fold.boundaryHook = { ok, actions };
      const span =
        fold.hookSpan ??
        fold.span({
          kind: "hook",
          label: "boundary hook",
          startMs: now,
          durationMs: 0,
          status: "running",
          depth: 0,
          stepIndex: -1,
        });
      span.durationMs = Math.max(0, now - span.startMs);
      span.status = ok ? "ok" : "error";
      span.label = `boundary hook: ${ok ? "ok" : "failed"} (${actions.length} action${actions.length === 1 ? "" : "s"})`;
      fold.hookSpan = null;
      break;
    }
    case "step_end": {
      const event = raw as EventOf<"step_end">;
      const step = fold.stepFor(count(event.iteration), text(event.stepId));
      if (step === null) break;
      step.output = json(event.output);
      step.handoff = isRecord(event.handoff) ? jsonRecord(event.handoff) : null;
      step.transition = text(record(event.history).transition);
      step.retryPrompt = text(record(event.pendingRetry).text);
      if (isRecord(event.totals)) {
        fold.tokens = tokensOf(event.totals);
        fold.costUsd = count(event.totals.costUsd) ?? fold.costUsd;
      }
      if (fold.open === step) {
        const failed =
          step.error !== null || step.transition === "error" || step.transition === "abort";
        fold.closeOpenStep(now, failed ? "error" : "ok");
      }
      break;
    }
    case "notice": {
      const event = raw as EventOf<"notice">;
      const message = text(event.message);
      if (message !== null)
        fold.notices.push(`${event.level === "warning" ? "Warning: " : ""}${message}`);
      break;
    }
    case "run_end": {
      const event = raw as EventOf<"run_end">;
      const result = record(event.result);
      const error = record(result.error);
      fold.closeOpenStep(now, result.success === true ? "ok" : "error");
      fold.end = {
        success: result.success === true,
        code: text(error.code),
        message: text(error.message),
        iterations: count(result.iterations) ?? fold.steps.length,
      };
      if (isRecord(result.usage)) {
        fold.tokens = tokensOf(result.usage);
        fold.costUsd = count(result.usage.costUsd) ?? fold.costUsd;
      }
      break;
    }
  }
}

/** A short, one-line hint of what a tool call did: its command or path. */
function toolSummary(input: ViewJson): string {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return "";
  for (const key of ["command", "file_path", "path", "pattern"]) {
    const value = input[key];
    if (typeof value === "string") return value.length > 80 ? `${value.slice(0, 79)}…` : value;
  }
  return "";
}

function summaryOf(fold: JournalFold, fallbackRunId: string): RunSummary {
  const status: RunStatus =
    fold.end === null ? "unfinished" : fold.end.success ? "completed" : "failed";
  const last = fold.steps.at(-1);
  return {
    runId: fold.runId || fallbackRunId,
    agent: fold.agent,
    args: fold.args,
    status,
    errorCode: fold.end?.code ?? null,
    errorMessage: fold.end?.message ?? null,
    iterations: fold.end?.iterations ?? fold.steps.length,
    tokens: fold.tokens,
    costUsd: fold.costUsd,
    startedAt: fold.t0 === null ? null : new Date(fold.t0).toISOString(),
    durationMs: fold.t0 === null || fold.lastTime === null ? 0 : fold.lastTime - fold.t0,
    currentStepId: fold.open?.stepId ?? last?.stepId ?? null,
    resumes: fold.resumes,
  };
}

function fold(events: readonly unknown[]): JournalFold {
  const state = new JournalFold();
  for (const event of events) {
    if (isRecord(event)) apply(state, event);
    else
      state.unknownTypes.set(
        "(not an object)",
        (state.unknownTypes.get("(not an object)") ?? 0) + 1,
      );
  }
  return state;
}

/** The runs-list row of a journal (`fallbackRunId`: the file name, for a journal without run_start). */
export function summarizeJournal(events: readonly unknown[], fallbackRunId: string): RunSummary {
  return summaryOf(fold(events), fallbackRunId);
}

/** Everything the page shows about one run. */
export function adaptJournal(
  events: readonly unknown[],
  declared: DeclaredFlow | null,
  fallbackRunId: string,
): RunDetail {
  const state = fold(events);
  const summary = summaryOf(state, fallbackRunId);
  const notices = [...state.notices];
  for (const [type, times] of state.unknownTypes) {
    notices.push(
      `Skipped ${times} event${times === 1 ? "" : "s"} of a type this viewer does not know: ${type}.`,
    );
  }
  const visits = new Map<string, number>();
  const kinds = new Map<string, string>();
  const validatorFailures = new Map<string, number>();
  for (const step of state.steps) {
    visits.set(step.stepId, (visits.get(step.stepId) ?? 0) + 1);
    kinds.set(step.stepId, step.stepKind);
    const failures = step.validators.filter((validator) => !validator.passed).length;
    if (step.validators.length > 0)
      validatorFailures.set(step.stepId, (validatorFailures.get(step.stepId) ?? 0) + failures);
  }
  const flow = buildFlowView(declared, {
    entryStepId: state.entryStepId,
    visits,
    kinds,
    validatorFailures,
    taken: state.taken,
    currentStepId: summary.status === "unfinished" ? (state.open?.stepId ?? null) : null,
    failedStepId: summary.status === "failed" ? (state.steps.at(-1)?.stepId ?? null) : null,
  });
  if (state.lastTime !== null) {
    const end = state.at(state.lastTime);
    if (state.open !== null) state.open.durationMs = Math.max(0, end - state.open.startMs);
    for (const span of state.spans) {
      if (span.status === "running") span.durationMs = Math.max(0, end - span.startMs);
    }
  }
  return {
    summary,
    flow,
    steps: state.steps,
    spans: state.spans,
    boundaryHook: state.boundaryHook,
    notices,
  };
}
