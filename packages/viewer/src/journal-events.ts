import type { RunEventType } from "@climpt/protocol";
import {
  applyModelRequest,
  applyModelResponse,
  applyToolCall,
  applyToolRefused,
  applyToolResult,
  applyValidator,
} from "./journal-call-events.ts";
import {
  count,
  type Fields,
  flag,
  isRecord,
  json,
  jsonRecord,
  record,
  text,
  timeOf,
  tokensOf,
} from "./journal-fields.ts";
import {
  type EventOf,
  type JournalFold,
  type MutableStep,
  newStep,
  stepLabel,
} from "./journal-fold.ts";
import { ledgerAttemptView, stepChangesView } from "./journal-ledger.ts";
import type { VerdictView } from "./view-model.ts";

/**
 * Reads one journal event into the fold. With journal-call-events.ts and journal-fold.ts, the only
 * place that knows the journal's event shapes (the `RunEvent` union of @climpt/protocol). Unknown event
 * types and fields of the wrong type are skipped, never fatal, so a journal from another runner
 * version still shows what it can.
 */

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
  ledger: true,
  verdict: true,
  boundary_hook_start: true,
  boundary_hook: true,
  step_changes: true,
  step_end: true,
  notice: true,
  budget: true,
  program: true,
  run_end: true,
};

/** Folds one event (any JSON object) into `fold`; an unknown type is counted, not fatal. */
export function applyEvent(fold: JournalFold, raw: Fields): void {
  const type = text(raw.type);
  if (type === null || !(type in KNOWN_TYPES)) {
    const name = type ?? "(no type)";
    fold.unknownTypes.set(name, (fold.unknownTypes.get(name) ?? 0) + 1);
    return;
  }
  const time = timeOf(raw.time);
  if (time !== null) {
    if (fold.t0 === null) fold.t0 = time;
    fold.previousTime = fold.lastTime;
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
      {
        const origin = record(event.forkedFrom);
        const runId = text(origin.runId);
        const iteration = count(origin.iteration);
        fold.forkedFrom =
          runId === null || iteration === null
            ? null
            : { runId, iteration, stepId: text(origin.stepId) ?? "?" };
      }
      break;
    }
    case "run_resume": {
      const event = raw as EventOf<"run_resume">;
      // What was running when the run stopped (the step, its calls) ended with the journal
      // before this event: it never finished, and the resume starts it again.
      fold.closeKilledAttempt(fold.previousTime === null ? now : fold.at(fold.previousTime));
      fold.resumes++;
      fold.resumedPending = true;
      // The run goes on: an earlier run_end (it was interrupted) no longer says how it stands.
      fold.end = null;
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
    case "model_request":
      applyModelRequest(fold, raw as EventOf<"model_request">, now);
      break;
    case "model_response":
      applyModelResponse(fold, raw as EventOf<"model_response">, now);
      break;
    case "tool_call":
      applyToolCall(fold, raw as EventOf<"tool_call">, now);
      break;
    case "tool_result":
      applyToolResult(fold, raw as EventOf<"tool_result">, now);
      break;
    case "tool_refused":
      applyToolRefused(fold, raw as EventOf<"tool_refused">);
      break;
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
    case "validator":
      applyValidator(fold, raw as EventOf<"validator">, now);
      break;
    case "ledger":
      fold.ledger.push(ledgerAttemptView(raw));
      break;
    case "step_changes": {
      const step = fold.stepFor(count(raw.iteration), text(raw.stepId));
      if (step !== null) step.changes = stepChangesView(raw);
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
      const inheritedFrom = text(event.inheritedFrom);
      const step =
        inheritedFrom === null
          ? fold.stepFor(count(event.iteration), text(event.stepId))
          : inheritedStep(fold, event, inheritedFrom, now);
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
    case "program": {
      // A program closure step (runner.command): one bar for the program, under its step.
      const event = raw as EventOf<"program">;
      const step = fold.stepFor(count(event.iteration), text(event.stepId));
      const command = Array.isArray(event.command) ? event.command.map(String).join(" ") : "";
      const durationMs = count(event.durationMs) ?? 0;
      fold.span({
        kind: "tool",
        label: `program ${command} → exit ${count(event.exitCode) ?? "?"}`,
        startMs: Math.max(0, now - durationMs),
        durationMs,
        status: event.exitCode === 0 ? "ok" : "error",
        depth: 1,
        stepIndex: step?.index ?? -1,
        tags: event.timedOut === true ? ["timed out"] : [],
      });
      break;
    }
    case "budget": {
      // A spent budget sent the run to its onBudget step: shown with the run's notices.
      const event = raw as EventOf<"budget">;
      const reached = record(event.reached);
      const owner = text(reached.stepId);
      const where = owner === null ? "the run's" : `step ${owner}'s`;
      const onBudget = text(reached.onBudget);
      fold.notices.push(
        `Budget: ${where} ${text(reached.limit) ?? "budget"} of ${count(reached.max) ?? "?"} was reached before iteration ${count(event.iteration) ?? "?"}${onBudget === null ? "." : `; the run went to ${onBudget}.`}`,
      );
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
        family: text(error.family),
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

/**
 * A fork's copy of a step end it did not run (`inheritedFrom`): a step of its own in the list,
 * with no calls, a zero-length bar tagged with the run that ran it.
 */
function inheritedStep(
  fold: JournalFold,
  event: EventOf<"step_end">,
  inheritedFrom: string,
  now: number,
): MutableStep {
  const step = newStep(
    fold,
    {
      ...event,
      type: "step_start",
      stepKind: "work",
      model: "",
      phase: "step",
      retry: false,
    },
    now,
  );
  step.inheritedFrom = inheritedFrom;
  step.running = false;
  fold.steps.push(step);
  fold.span({
    kind: "step",
    label: stepLabel(step),
    startMs: now,
    durationMs: 0,
    status: "ok",
    depth: 0,
    stepIndex: step.index,
    tags: [`from ${inheritedFrom}`],
  });
  return step;
}
