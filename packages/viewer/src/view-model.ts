/**
 * What the page shows, as plain JSON. The journal adapter builds it in Node; the browser client
 * only reads it. Nothing here names a journal event: when the event shapes change, only
 * `journal-adapter.ts` changes.
 */

/** Any JSON value (the model's outputs, tool inputs, handoffs). */
export type ViewJson = null | boolean | number | string | ViewJson[] | { [key: string]: ViewJson };

/**
 * The one status vocabulary of @climpt/protocol (`climpt runs` uses the same words):
 * `completed`, `failed`, `interrupted` (stopped by a signal or the wall-clock budget), and
 * `unfinished` (the journal has no end yet: the run is in progress, or was killed).
 */
export type { RunStatus } from "@climpt/protocol";

import type { RunStatus } from "@climpt/protocol";

export interface TokenCounts {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** One row of the runs list. */
export interface RunSummary {
  readonly runId: string;
  readonly agent: string;
  /** The run's parameters (issue number, topic, …), secrets scrubbed. */
  readonly args: Readonly<Record<string, ViewJson>>;
  readonly status: RunStatus;
  /** A failed run's specific error code (`SR-INTENT-007`, `AGENT_VALIDATION_ABORT`). */
  readonly errorCode: string | null;
  /**
   * The run-level code the specific one belongs to (`GATE_INTERPRETATION_ERROR`), when it has
   * one. A run's outcome is `errorFamily ?? errorCode`.
   */
  readonly errorFamily: string | null;
  readonly errorMessage: string | null;
  readonly iterations: number;
  readonly tokens: TokenCounts;
  readonly costUsd: number;
  /** ISO time of the first event. */
  readonly startedAt: string | null;
  /** From the first to the last event (so far, for an unfinished run). */
  readonly durationMs: number;
  /** The step running now (unfinished) or the last step that ran. */
  readonly currentStepId: string | null;
  /** How many times the run was resumed. */
  readonly resumes: number;
  /**
   * A fork (`climpt fork`): the run it was forked from and the iteration (and step) it started
   * at; its steps before that are the source's (`StepView.inheritedFrom`). Null otherwise.
   */
  readonly forkedFrom: {
    readonly runId: string;
    readonly iteration: number;
    readonly stepId: string;
  } | null;
}

/** How a node of the flow is drawn. `gate`: the validators between a closure step and End. */
export type FlowNodeKind =
  | "start"
  | "end"
  | "work"
  | "verification"
  | "closure"
  | "gate"
  | "missing";

export interface FlowNodeView {
  /** `start`, `end`, `s:<stepId>` or `g:<stepId>` (the gate after closure step `<stepId>`). */
  readonly key: string;
  readonly label: string;
  readonly kind: FlowNodeKind;
  /** The step this node stands for (its gate's closure step for a gate). */
  readonly stepId: string | null;
  /** Executions of the step in this run; for a gate, how often it was consulted. */
  readonly visits: number;
  /** For a gate: its validators. */
  readonly validators: readonly string[];
  /** For a gate: failed validator results in this run. */
  readonly failures: number;
}

export interface FlowEdgeView {
  readonly from: string;
  readonly to: string;
  /** What the arrow says: the intent, `fail: validation retry ≤3`, `onPass`, … */
  readonly label: string;
  /** How often this run took the edge. */
  readonly taken: number;
  /** True for an edge the registry does not declare but the run took. */
  readonly undeclared: boolean;
  /** A failed validation going back to a work step. */
  readonly retry: boolean;
}

/** The agent's flow with this run's path on it, ready to lay out. */
export interface FlowView {
  /** `registry`: the agent's steps_registry.json; `journal`: only the path the run took. */
  readonly source: "registry" | "journal";
  readonly nodes: readonly FlowNodeView[];
  readonly edges: readonly FlowEdgeView[];
  /** Node key of the step running now (unfinished run). */
  readonly currentKey: string | null;
  /** Node key of the step the run failed at (failed run). */
  readonly failedKey: string | null;
}

/**
 * The agent's declared flow, as read from its registry (Node side), independent of any run.
 * `to: null` ends the run (through the closure step's gate when it has validators).
 */
export interface DeclaredFlow {
  readonly entries: readonly string[];
  readonly steps: readonly {
    readonly id: string;
    readonly kind: "work" | "verification" | "closure";
    readonly validators: readonly string[];
  }[];
  readonly edges: readonly {
    readonly from: string;
    readonly to: string | null;
    readonly label: string;
    readonly intent: string | null;
    /** A failed validation of closure step `from` returning to `to`. */
    readonly validationRetry: boolean;
  }[];
}

export interface ModelCallView {
  readonly phase: "step" | "check";
  readonly call: number;
  readonly model: string;
  readonly repair: boolean;
  readonly replayed: boolean;
  readonly stopReason: string | null;
  readonly tokens: TokenCounts;
  readonly costUsd: number;
  readonly durationMs: number;
  /** The reply's text blocks joined (tool use blocks are shown as tool calls). */
  readonly text: string;
}

export interface ToolCallView {
  readonly name: string;
  readonly input: ViewJson;
  readonly output: string | null;
  readonly isError: boolean;
  readonly durationMs: number | null;
  readonly replayed: boolean;
  readonly interrupted: boolean;
  /** Why the policy refused the call, when it did. */
  readonly refused: string | null;
}

export interface ValidatorView {
  readonly name: string;
  readonly command: string;
  readonly exitCode: number | null;
  readonly passed: boolean;
  readonly timedOut: boolean;
  readonly durationMs: number;
  readonly output: string;
}

/** A file a step changed (`git diff --numstat` counts; null for a binary file). */
export interface FileChangeView {
  readonly path: string;
  readonly added: number | null;
  readonly removed: number | null;
}

/** One validator of a completion-ledger attempt. */
export interface LedgerEntryView {
  readonly validator: string;
  readonly command: string;
  readonly passed: boolean;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** What its extractors found, one line (`changedFiles: src/a.js`). */
  readonly findings: string;
  /** `sha256:…` of its output. */
  readonly digest: string;
}

/** One validation attempt of the completion ledger, with the commit it ran against. */
export interface LedgerAttemptView {
  readonly stepId: string;
  readonly attempt: number;
  readonly iteration: number;
  readonly passed: boolean;
  readonly time: string | null;
  readonly commit: {
    readonly sha: string;
    readonly tree: string;
    readonly clean: boolean;
    readonly branch: string | null;
  } | null;
  readonly commitError: string | null;
  readonly entries: readonly LedgerEntryView[];
}

export interface VerdictView {
  readonly outcome: string;
  readonly reason: string;
  readonly failurePattern: string | null;
  readonly returnStepId: string | null;
}

/** One execution of a step (one iteration), everything the step panel shows. */
export interface StepView {
  /** Position in the run's list of executions, 0-based. */
  readonly index: number;
  readonly iteration: number;
  readonly stepId: string;
  readonly stepKind: string;
  readonly model: string;
  /** The prompt was a validation retry prompt. */
  readonly retry: boolean;
  /** This execution began in a resumed session. */
  readonly resumed: boolean;
  readonly promptSource: string | null;
  readonly promptFile: string | null;
  readonly prompt: string | null;
  readonly checkPrompt: string | null;
  readonly output: ViewJson;
  readonly intent: string | null;
  readonly target: string | null;
  readonly reason: string | null;
  /** This execution's handoff; the page folds the steps before it for "before" and "after". */
  readonly handoff: Readonly<Record<string, ViewJson>> | null;
  readonly transition: string | null;
  readonly modelCalls: readonly ModelCallView[];
  readonly toolCalls: readonly ToolCallView[];
  readonly validators: readonly ValidatorView[];
  readonly verdict: VerdictView | null;
  readonly check: { readonly passed: boolean; readonly message: string } | null;
  /** The files this step changed in the working tree (`step_changes`), or null when unknown. */
  readonly changes: {
    readonly files: readonly FileChangeView[];
    readonly truncated: boolean;
  } | null;
  /** The retry prompt the next iteration runs with, when validation failed here. */
  readonly retryPrompt: string | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly tokens: TokenCounts;
  readonly costUsd: number;
  /** Milliseconds from the run's first event. */
  readonly startMs: number;
  readonly durationMs: number;
  /** True while the step is still running (no step_end yet). */
  readonly running: boolean;
  /**
   * In a fork: the run that ran this step (the fork copied its step end, and ran nothing for
   * it); null for a step the run ran itself.
   */
  readonly inheritedFrom: string | null;
}

export type SpanKind = "step" | "model" | "tool" | "validator" | "hook" | "resume";

/** One bar of the waterfall. */
export interface SpanView {
  readonly kind: SpanKind;
  readonly label: string;
  /** Milliseconds from the run's first event. */
  readonly startMs: number;
  readonly durationMs: number;
  /** `ok`, `error` (failed validator, tool error, failed step), `running`. */
  readonly status: "ok" | "error" | "running";
  /** 0: step, hook or resume; 1: inside a step. */
  readonly depth: 0 | 1;
  /** The step execution this span belongs to (index into `steps`), -1 for none. */
  readonly stepIndex: number;
  /** `retry` (validation retry prompt), `repair` (schema repair turn), `replayed`, `resumed`. */
  readonly tags: readonly string[];
}

/** Everything about one run. */
export interface RunDetail {
  readonly summary: RunSummary;
  readonly flow: FlowView;
  readonly steps: readonly StepView[];
  readonly spans: readonly SpanView[];
  readonly boundaryHook: { readonly ok: boolean; readonly actions: readonly ViewJson[] } | null;
  /** The completion ledger: every validation attempt, in order (empty for older journals). */
  readonly ledger: readonly LedgerAttemptView[];
  /** What the reader should know: skipped lines, unknown events, a changed registry. */
  readonly notices: readonly string[];
}

/** A run as the page receives it: its journal lines (scrubbed) and its agent's declared flow. */
export interface RunSource {
  readonly runId: string;
  /** The journal's events, parsed, secrets scrubbed; lines that did not parse are left out. */
  readonly events: readonly unknown[];
  readonly declaredFlow: DeclaredFlow | null;
  /** What the reader should know that the events do not say (skipped lines, missing agent). */
  readonly notices: readonly string[];
}

/** The data a page starts with. */
export interface PageData {
  /** `file`: a self-contained page; `live`: served by `climpt view --serve`. */
  readonly mode: "file" | "live";
  readonly generatedAt: string;
  readonly runs: readonly RunSummary[];
  /** Run id → its source. A live page fetches sources on demand and starts with none. */
  readonly sources: Readonly<Record<string, RunSource>>;
  /** The run to open first. */
  readonly selectedRunId: string | null;
}
