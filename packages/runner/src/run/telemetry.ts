import { resetStatBuffer } from "@climpt/host-git";
import { formatCode } from "@climpt/model";
import type { Usage } from "@climpt/sdk-adapter";
import type { Attributes, Span, SpanKind, Tracer } from "@opentelemetry/api";
import type { RunEvent, RunStartEvent } from "../run-event.ts";

const TRACER_NAME = "@climpt/runner";

type OpenTelemetryApi = typeof import("@opentelemetry/api");

/**
 * Where @opentelemetry/api (major version 1) keeps what an SDK registers: a tracer provider, a
 * context manager. Until something is registered there, every tracer is a no-op.
 */
const OTEL_GLOBAL = Symbol.for("opentelemetry.js.api.1");

/** The model provider, as the GenAI semantic conventions name it. */
const PROVIDER = "anthropic";

/**
 * Attributes on every span of a run: the GenAI conventions' agent name and conversation id (one
 * run is one conversation history, so a collector groups its spans), and climpt's own.
 */
function commonAttributes(start: RunStartEvent): Attributes {
  return {
    "gen_ai.agent.name": start.agent,
    "gen_ai.conversation.id": start.runId,
    "climpt.agent": start.agent,
    "climpt.run_id": start.runId,
    "climpt.registry.version": start.registryVersion,
  };
}

/**
 * Token counts as the GenAI conventions define them: `input_tokens` counts every input token,
 * the ones read from and written to the prompt cache included (the API reports those apart).
 */
function usageAttributes(usage: Usage): Attributes {
  return {
    "gen_ai.usage.input_tokens":
      usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens,
    "gen_ai.usage.output_tokens": usage.outputTokens,
    "gen_ai.usage.cache_read.input_tokens": usage.cacheReadInputTokens,
    "gen_ai.usage.cache_creation.input_tokens": usage.cacheCreationInputTokens,
  };
}

/**
 * Turns the run's events into OpenTelemetry spans that follow the GenAI semantic conventions, so
 * a user's own collector shows a run the way `climpt view` does:
 *
 *   invoke_agent <agent>            the run (gen_ai.operation.name invoke_agent)
 *     step <step id>                one step execution (a fresh conversation)
 *       chat <model>                each model call (CLIENT; usage, finish reason)
 *       execute_tool <tool>         each tool call (gen_ai.tool.*)
 *       climpt.validator            each validator of a closure step
 *
 * It uses only @opentelemetry/api, so it costs nothing until the user registers an SDK (the
 * API's default tracer is a no-op). The API itself (some fifty modules) is imported by `load`
 * only when something is registered when the run starts: a run without telemetry does not load
 * it, and an SDK registered in the middle of a run traces from the next run on. Spans also carry climpt's own attributes: the step id, the
 * prompt file and the registry version, so a trace viewer can tell which prompt produced which call.
 */
export class RunTelemetry {
  /** Set by `load` when an SDK is registered; until then every event is ignored. */
  private api: OpenTelemetryApi | undefined;
  private tracer: Tracer | undefined;
  private runSpan: Span | undefined;
  private stepSpan: Span | undefined;
  private readonly callSpans = new Map<string, Span>();
  private readonly toolSpans = new Map<string, { readonly span: Span; readonly name: string }>();
  private stepUsage = { input: 0, output: 0 };
  private common: Attributes = {};

  /**
   * A resumed run emits no run_start of its own: take the run's common attributes from the one
   * its journal holds, so the resumed session's spans are tagged like the first session's.
   */
  /** Imports the API if an SDK registered itself with it (see OTEL_GLOBAL). Call before the run. */
  async load(): Promise<void> {
    if (this.api !== undefined || !(OTEL_GLOBAL in globalThis)) return;
    // In the same tick as the import's resolution (@climpt/host-git's stat-buffer.ts says why).
    resetStatBuffer();
    this.api = await import("@opentelemetry/api");
    this.tracer = this.api.trace.getTracer(TRACER_NAME);
  }

  /** Whether events become spans (an SDK was registered when the run started). */
  get active(): boolean {
    return this.api !== undefined;
  }

  restore(start: RunStartEvent): void {
    this.common = commonAttributes(start);
  }

  handle(event: RunEvent): void {
    const api = this.api;
    if (api === undefined) return;
    const { SpanKind, SpanStatusCode } = api;
    switch (event.type) {
      case "run_start":
        this.common = commonAttributes(event);
        this.runSpan = this.startRunSpan(event.agent, {});
        break;
      case "run_resume":
        this.runSpan ??= this.startRunSpan(String(this.common["gen_ai.agent.name"] ?? "agent"), {
          "gen_ai.conversation.id": event.runId,
          "climpt.run_id": event.runId,
          "climpt.resumed": true,
        });
        break;
      case "step_start":
        if (event.phase === "step") {
          this.endStep();
          this.stepUsage = { input: 0, output: 0 };
          this.stepSpan = this.childSpan(`step ${event.stepId}`, {
            "gen_ai.request.model": event.model,
            "climpt.step.id": event.stepId,
            "climpt.step.kind": event.stepKind,
            "climpt.iteration": event.iteration,
            "climpt.model": event.model,
            "climpt.retry": event.retry,
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
          this.childSpan(
            `chat ${event.model}`,
            {
              "gen_ai.operation.name": "chat",
              "gen_ai.provider.name": PROVIDER,
              "gen_ai.request.model": event.model,
              "climpt.step.id": event.stepId,
              "climpt.model": event.model,
              "climpt.call": event.call,
              "climpt.phase": event.phase,
              "climpt.repair": event.repair,
            },
            undefined,
            SpanKind.CLIENT,
          ),
        );
        break;
      case "model_response": {
        const key = `${event.iteration}:${event.phase}:${event.call}`;
        const span = this.callSpans.get(key);
        const usage = usageAttributes(event.usage);
        span?.setAttributes({
          ...usage,
          "gen_ai.response.model": event.model,
          "gen_ai.response.finish_reasons": event.stopReason === null ? [] : [event.stopReason],
          "climpt.usage.input_tokens": event.usage.inputTokens,
          "climpt.usage.output_tokens": event.usage.outputTokens,
          "climpt.usage.cache_read_input_tokens": event.usage.cacheReadInputTokens,
          "climpt.cost_usd": event.costUsd,
          "climpt.stop_reason": event.stopReason ?? "",
          ...(event.requestId === null ? {} : { "climpt.request_id": event.requestId }),
          ...(event.replayed === true ? { "climpt.replayed": true } : {}),
        });
        span?.end();
        this.callSpans.delete(key);
        if (event.replayed !== true) {
          this.stepUsage.input += Number(usage["gen_ai.usage.input_tokens"]);
          this.stepUsage.output += event.usage.outputTokens;
        }
        break;
      }
      case "tool_call":
        this.toolSpans.set(event.call.id, {
          name: event.call.name,
          span: this.childSpan(`execute_tool ${event.call.name}`, {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": event.call.name,
            "gen_ai.tool.call.id": event.call.id,
            "gen_ai.tool.type": "function",
            "climpt.step.id": event.stepId,
          }),
        });
        break;
      case "tool_refused": {
        // The policy refused the call the model just made: its span ends as an error.
        const open = [...this.toolSpans.values()]
          .reverse()
          .find((tool) => tool.name === event.tool);
        open?.span.setAttributes({
          "error.type": "tool_refused",
          "climpt.tool.refused": event.reason,
        });
        break;
      }
      case "tool_result": {
        const open = this.toolSpans.get(event.call.id);
        if (open === undefined) break;
        this.toolSpans.delete(event.call.id);
        if (event.result.isError) {
          open.span.setAttribute("error.type", "tool_error");
          open.span.setStatus({
            code: SpanStatusCode.ERROR,
            message: "the tool returned an error",
          });
        }
        if (event.replayed === true) open.span.setAttribute("climpt.replayed", true);
        if (event.interrupted === true) open.span.setAttribute("climpt.interrupted", true);
        open.span.end();
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
        this.endStep();
        break;
      case "run_end": {
        for (const span of this.callSpans.values()) span.end();
        this.callSpans.clear();
        this.endStep();
        const result = event.result;
        this.runSpan?.setAttributes({
          ...usageAttributes(result.usage),
          "climpt.success": result.success,
          "climpt.iterations": result.iterations,
          "climpt.cost_usd": result.usage.costUsd,
        });
        if (!result.success) {
          // error.type is a low-cardinality class of error, so it carries the run-level code
          // (family); the status message keeps the specific code beside it.
          const error = result.error;
          this.runSpan?.setAttribute("error.type", error ? (error.family ?? error.code) : "failed");
          this.runSpan?.setStatus({
            code: SpanStatusCode.ERROR,
            message: error === undefined ? "failed" : formatCode(error),
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

  /** The API and tracer `load` set; the span helpers run only from `handle`, after its check. */
  private otel(): { readonly api: OpenTelemetryApi; readonly tracer: Tracer } {
    if (this.api === undefined || this.tracer === undefined) {
      throw new Error("RunTelemetry made a span before load() found an OpenTelemetry SDK.");
    }
    return { api: this.api, tracer: this.tracer };
  }

  private startRunSpan(agent: string, extra: Attributes): Span {
    const { api, tracer } = this.otel();
    return tracer.startSpan(`invoke_agent ${agent}`, {
      kind: api.SpanKind.INTERNAL,
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.provider.name": PROVIDER,
        ...this.common,
        ...extra,
      },
    });
  }

  /** Ends the step span (and any tool span a stop left open) with the step's token usage. */
  private endStep(): void {
    for (const tool of this.toolSpans.values()) tool.span.end();
    this.toolSpans.clear();
    this.stepSpan?.setAttributes({
      "gen_ai.usage.input_tokens": this.stepUsage.input,
      "gen_ai.usage.output_tokens": this.stepUsage.output,
    });
    this.stepSpan?.end();
    this.stepSpan = undefined;
  }

  private childSpan(
    name: string,
    attributes: Attributes,
    startTime?: number,
    kind?: SpanKind,
  ): Span {
    const { api, tracer } = this.otel();
    const parent = this.stepSpan ?? this.runSpan;
    const parentContext =
      parent === undefined ? undefined : api.trace.setSpan(api.context.active(), parent);
    return tracer.startSpan(
      name,
      {
        kind: kind ?? api.SpanKind.INTERNAL,
        attributes: { ...this.common, ...attributes },
        ...(startTime === undefined ? {} : { startTime }),
      },
      parentContext,
    );
  }
}
