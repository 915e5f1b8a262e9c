import type { RunEvent, RunEventType } from "@climpt/protocol";
import type { TakenPath } from "./flow-view.ts";
import { count, flag, isRecord, NO_TOKENS, text } from "./journal-fields.ts";
import type {
  LedgerAttemptView,
  RunDetail,
  SpanView,
  StepView,
  TokenCounts,
  ToolCallView,
  ViewJson,
} from "./view-model.ts";

/**
 * The state of folding one journal: the steps and spans seen so far, the calls and tools still
 * waiting for their result, and the run's end. The event readers (journal-events.ts,
 * journal-call-events.ts) fill it; journal-adapter.ts turns it into what the page shows.
 */

/** A journal event of one type, every field possibly missing (read defensively). */
export type EventOf<T extends RunEventType> = Partial<Extract<RunEvent, { type: T }>>;

export type MutableStep = { -readonly [K in keyof StepView]: StepView[K] };
export type MutableSpan = { -readonly [K in keyof SpanView]: SpanView[K] } & { tags: string[] };

export interface OpenCall {
  readonly span: MutableSpan;
  readonly repair: boolean;
}

export interface OpenTool {
  readonly span: MutableSpan;
  readonly view: { -readonly [K in keyof ToolCallView]: ToolCallView[K] };
}

/** What folding a journal has gathered so far, and the step, calls and tools still open. */
export class JournalFold {
  runId = "";
  agent = "";
  args: Record<string, ViewJson> = {};
  entryStepId: string | null = null;
  t0: number | null = null;
  lastTime: number | null = null;
  /** `lastTime` before the event being folded: where a killed attempt's journal ended. */
  previousTime: number | null = null;
  readonly steps: MutableStep[] = [];
  readonly spans: MutableSpan[] = [];
  readonly stepSpans: Map<MutableStep, MutableSpan> = new Map();
  readonly openCalls: Map<string, OpenCall> = new Map();
  readonly openTools: Map<string, OpenTool> = new Map();
  readonly taken: TakenPath[] = [];
  readonly unknownTypes: Map<string, number> = new Map();
  readonly notices: string[] = [];
  open: MutableStep | null = null;
  resumedPending = false;
  resumes = 0;
  /** `run_start.forkedFrom`: where a fork started. */
  forkedFrom: { runId: string; iteration: number; stepId: string } | null = null;
  tokens: TokenCounts = NO_TOKENS;
  costUsd = 0;
  hookSpan: MutableSpan | null = null;
  boundaryHook: RunDetail["boundaryHook"] = null;
  readonly ledger: LedgerAttemptView[] = [];
  end: {
    success: boolean;
    code: string | null;
    family: string | null;
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

  /**
   * Ends everything an attempt left open when it was killed (its step, its model and tool
   * calls), at `endMs`, as failed: a later resume starts them again, and a span left "running"
   * would draw the killed attempt as if it still went on.
   */
  closeKilledAttempt(endMs: number): void {
    this.closeOpenStep(endMs, "error");
    for (const span of this.spans) {
      if (span.status !== "running") continue;
      span.status = "error";
      span.durationMs = Math.max(0, endMs - span.startMs);
    }
    this.openCalls.clear();
    this.openTools.clear();
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

export function newStep(
  fold: JournalFold,
  event: EventOf<"step_start">,
  startMs: number,
): MutableStep {
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
    changes: null,
    retryPrompt: null,
    error: null,
    tokens: NO_TOKENS,
    costUsd: 0,
    startMs,
    durationMs: 0,
    running: true,
    inheritedFrom: null,
  };
}

export function replyText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (isRecord(block) && block.type === "text" && typeof block.text === "string")
      parts.push(block.text);
  }
  return parts.join("\n");
}

export function stepLabel(step: MutableStep): string {
  return `[${step.iteration}] ${step.stepId}`;
}

/** A short, one-line hint of what a tool call did: its command or path. */
export function toolSummary(input: ViewJson): string {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return "";
  for (const key of ["command", "file_path", "path", "pattern"]) {
    const value = input[key];
    if (typeof value === "string") return value.length > 80 ? `${value.slice(0, 79)}…` : value;
  }
  return "";
}
