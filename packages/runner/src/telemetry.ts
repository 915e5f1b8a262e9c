import { formatCode } from "@climpt/model";
import { type Attributes, context, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import type { RunEvent, RunStartEvent } from "./run-event.ts";

const TRACER_NAME = "@climpt/runner";

function commonAttributes(start: RunStartEvent): Attributes {
  return {
    "climpt.agent": start.agent,
    "climpt.run_id": start.runId,
    "climpt.registry.version": start.registryVersion,
  };
}

/**
 * Turns the run's events into OpenTelemetry spans: run → step → model call, plus one span per
 * validator. It uses only @opentelemetry/api, so it costs nothing until the user registers an SDK
 * (the API's default tracer is a no-op). Spans carry the step id, the prompt file and the
 * registry version, so a trace viewer can tell which prompt produced which call.
 */
export class RunTelemetry {
  private readonly tracer = trace.getTracer(TRACER_NAME);
  private runSpan: Span | undefined;
  private stepSpan: Span | undefined;
  private readonly callSpans = new Map<string, Span>();
  private common: Attributes = {};

  /**
   * A resumed run emits no run_start of its own: take the run's common attributes from the one
   * its journal holds, so the resumed session's spans are tagged like the first session's.
   */
  restore(start: RunStartEvent): void {
    this.common = commonAttributes(start);
  }

  handle(event: RunEvent): void {
    switch (event.type) {
      case "run_start":
        this.common = commonAttributes(event);
        this.runSpan = this.tracer.startSpan("climpt.run", { attributes: this.common });
        break;
      case "run_resume":
        this.runSpan ??= this.tracer.startSpan("climpt.run", {
          attributes: { ...this.common, "climpt.run_id": event.runId, "climpt.resumed": true },
        });
        break;
      case "step_start":
        if (event.phase === "step") {
          this.stepSpan?.end();
          this.stepSpan = this.childSpan("climpt.step", {
            "climpt.step.id": event.stepId,
            "climpt.step.kind": event.stepKind,
            "climpt.iteration": event.iteration,
            "climpt.model": event.model,
          });
        }
        break;
      case "prompt_resolved":
        this.stepSpan?.setAttribute(
          event.phase === "step" ? "climpt.prompt.file" : "climpt.check.prompt.file",
          event.promptFile ?? event.source,
        );
        break;
      case "model_request":
        this.callSpans.set(
          `${event.iteration}:${event.phase}:${event.call}`,
          this.childSpan("climpt.model_call", {
            "climpt.step.id": event.stepId,
            "climpt.model": event.model,
            "climpt.call": event.call,
            "climpt.repair": event.repair,
          }),
        );
        break;
      case "model_response": {
        const key = `${event.iteration}:${event.phase}:${event.call}`;
        const span = this.callSpans.get(key);
        span?.setAttributes({
          "climpt.usage.input_tokens": event.usage.inputTokens,
          "climpt.usage.output_tokens": event.usage.outputTokens,
          "climpt.usage.cache_read_input_tokens": event.usage.cacheReadInputTokens,
          "climpt.cost_usd": event.costUsd,
          "climpt.stop_reason": event.stopReason ?? "",
        });
        span?.end();
        this.callSpans.delete(key);
        break;
      }
      case "validator": {
        const end = Date.parse(event.time);
        const span = this.childSpan(
          "climpt.validator",
          {
            "climpt.step.id": event.stepId,
            "climpt.validator": event.validator,
            "climpt.validator.command": event.command,
            "climpt.validator.passed": event.passed,
          },
          end - event.durationMs,
        );
        if (!event.passed)
          span.setStatus({ code: SpanStatusCode.ERROR, message: "validator failed" });
        span.end(end);
        break;
      }
      case "step_end":
        this.stepSpan?.setAttribute("climpt.transition", event.history.transition);
        this.stepSpan?.end();
        this.stepSpan = undefined;
        break;
      case "run_end": {
        for (const span of this.callSpans.values()) span.end();
        this.callSpans.clear();
        this.stepSpan?.end();
        this.stepSpan = undefined;
        const result = event.result;
        this.runSpan?.setAttributes({
          "climpt.success": result.success,
          "climpt.iterations": result.iterations,
          "climpt.cost_usd": result.usage.costUsd,
        });
        if (!result.success) {
          this.runSpan?.setStatus({
            code: SpanStatusCode.ERROR,
            message: result.error === undefined ? "failed" : formatCode(result.error),
          });
        }
        this.runSpan?.end();
        this.runSpan = undefined;
        break;
      }
      default:
        break;
    }
  }

  private childSpan(name: string, attributes: Attributes, startTime?: number): Span {
    const parent = this.stepSpan ?? this.runSpan;
    const parentContext =
      parent === undefined ? undefined : trace.setSpan(context.active(), parent);
    return this.tracer.startSpan(
      name,
      {
        attributes: { ...this.common, ...attributes },
        ...(startTime === undefined ? {} : { startTime }),
      },
      parentContext,
    );
  }
}
