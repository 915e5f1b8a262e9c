import type { ToolResult } from "@climpt/sdk-adapter";
import { continuesMidStep } from "../run/run-errors.ts";
import { ZERO_TOTALS } from "../run/usage-meter.ts";
import type { RunEvent } from "../run-event.ts";
import type { RunUsage } from "../run-result.ts";
import type { PhaseReplay } from "../step-executor.ts";
import type { RecordedReply } from "./journal-replay.ts";

type Phase = "step" | "check";

/** What resume serves from the journal for the step that was interrupted, per phase. */
export interface MidStepReplay {
  readonly stepId: string;
  readonly iteration: number;
  readonly phases: Readonly<Record<Phase, PhaseReplay>>;
}

/**
 * What the journal recorded of the step that was running when the run stopped: the events after
 * its last step_end. Replies and tool results a resumed session served from the journal are
 * marked `replayed` and skipped (the original record is already collected), a tool result cut off
 * by the stop is skipped (the call counts as in flight: the model is told its effect is unknown,
 * see `JournalToolReplay`), and an attempt that ended on what the model said
 * is dropped (the step runs again live): see `continuesMidStep`.
 */
export function recordedMidStep(events: readonly RunEvent[]): Record<Phase, PhaseReplay> {
  let replies: Record<Phase, RecordedReply[]> = { step: [], check: [] };
  let toolResults: Record<Phase, Map<string, ToolResult[]>> = { step: new Map(), check: new Map() };
  let phase: Phase = "step";
  for (const event of events) {
    switch (event.type) {
      case "step_start":
        phase = event.phase;
        break;
      case "model_response":
        phase = event.phase;
        if (event.replayed === true) break;
        replies[event.phase].push({
          content: event.content,
          usage: event.usage,
          costUsd: event.costUsd,
          stopReason: event.stopReason,
          model: event.model,
          requestId: event.requestId,
        });
        break;
      case "tool_result": {
        if (event.replayed === true || event.interrupted === true) break;
        const queue = toolResults[phase].get(event.call.id);
        if (queue === undefined) toolResults[phase].set(event.call.id, [event.result]);
        else queue.push(event.result);
        break;
      }
      case "run_end":
        if (!continuesMidStep(event.result.error?.code)) {
          replies = { step: [], check: [] };
          toolResults = { step: new Map(), check: new Map() };
        }
        break;
      default:
        break;
    }
  }
  return {
    step: { replies: replies.step, toolResults: toolResults.step },
    check: { replies: replies.check, toolResults: toolResults.check },
  };
}

/** The run's usage as last recorded: every call made so far, including a failed attempt's. */
export function recordedTotals(events: readonly RunEvent[]): RunUsage {
  let totals: RunUsage = ZERO_TOTALS;
  for (const event of events) {
    if (event.type === "step_end" || event.type === "model_response") totals = event.totals;
    else if (event.type === "run_end") totals = event.result.usage;
  }
  return totals;
}

/** How many replies and tool results a replay serves, for the `run_resume` event. */
export function replayCounts(phases: Readonly<Record<Phase, PhaseReplay>>): {
  readonly replayedModelCalls: number;
  readonly replayedToolResults: number;
} {
  let replayedToolResults = 0;
  for (const phase of Object.values(phases))
    for (const results of phase.toolResults.values()) replayedToolResults += results.length;
  return {
    replayedModelCalls: phases.step.replies.length + phases.check.replies.length,
    replayedToolResults,
  };
}

/**
 * The replay without its tool results: the recorded replies are still served (no completed model
 * call is made again), and every tool call they ask for runs again. For a run resumed in a folder
 * rebuilt from the last step end, where the recorded tool calls' effects are missing.
 */
export function withoutToolResults(
  phases: Readonly<Record<Phase, PhaseReplay>>,
): Record<Phase, PhaseReplay> {
  return {
    step: { replies: phases.step.replies, toolResults: new Map(), rerunTools: true },
    check: { replies: phases.check.replies, toolResults: new Map(), rerunTools: true },
  };
}
