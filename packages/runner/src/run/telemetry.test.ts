import path from "node:path";
import {
  type Attributes,
  type AttributeValue,
  type Context,
  type Span,
  type SpanContext,
  SpanKind,
  type SpanOptions,
  type SpanStatus,
  SpanStatusCode,
  type TimeInput,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import { afterAll, describe, expect, it, vi } from "vitest";
import { EXAMPLES, fakeModel, makeSampleRepo } from "../runner.test-helper.ts";
import { StepFlowRunner } from "../step-flow-runner.ts";
import { loadAgentDefinition } from "./agent-location.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 6 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** A span that remembers what the runner told it, and its parent. */
class RecordedSpan implements Span {
  readonly attributes: Attributes = {};
  readonly kind: SpanKind | undefined;
  status: SpanStatus | undefined;
  ended = false;
  private readonly context: SpanContext;

  constructor(
    readonly name: string,
    readonly parent: RecordedSpan | undefined,
    options: SpanOptions,
    id: number,
  ) {
    Object.assign(this.attributes, options.attributes);
    this.kind = options.kind;
    this.context = {
      traceId: "00000000000000000000000000000001",
      spanId: id.toString(16).padStart(16, "0"),
      traceFlags: 1,
    };
  }
  spanContext(): SpanContext {
    return this.context;
  }
  setAttribute(key: string, value: AttributeValue): this {
    this.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes): this {
    Object.assign(this.attributes, attributes);
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.status = status;
    return this;
  }
  updateName(): this {
    return this;
  }
  end(_endTime?: TimeInput): void {
    this.ended = true;
  }
  isRecording(): boolean {
    return true;
  }
  recordException(): void {}
}

const spans: RecordedSpan[] = [];
const tracer: Tracer = {
  startSpan(name: string, options: SpanOptions = {}, context?: Context): Span {
    const parent =
      context === undefined ? undefined : (trace.getSpan(context) as RecordedSpan | undefined);
    const span = new RecordedSpan(name, parent, options, spans.length + 1);
    spans.push(span);
    return span;
  },
  startActiveSpan(): never {
    throw new Error("the runner does not use startActiveSpan");
  },
};
const provider: TracerProvider = { getTracer: () => tracer };
trace.setGlobalTracerProvider(provider);
afterAll(() => trace.disable());

describe("OpenTelemetry spans", () => {
  it("follow the GenAI conventions: invoke_agent → step → chat and execute_tool, plus validators, tagged with step id, prompt file and registry version", async () => {
    const { client, fake } = await fakeModel("fix-bug");
    let runId = "";
    try {
      const loaded = await loadAgentDefinition(path.join(EXAMPLES, "agents", "fix-bug"));
      const result = await new StepFlowRunner(loaded, { modelClient: client }).run({
        args: { issue: 1 },
        cwd: makeSampleRepo(),
      });
      expect(result.success).toBe(true);
      runId = result.runId;
    } finally {
      await fake.close();
    }
    const byName = (name: string) => spans.filter((span) => span.name === name);
    const [run] = byName("invoke_agent fix-bug");
    expect(run?.kind).toBe(SpanKind.INTERNAL);
    expect(run?.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.provider.name": "anthropic",
      "gen_ai.agent.name": "fix-bug",
      "gen_ai.conversation.id": runId,
      "climpt.agent": "fix-bug",
      "climpt.registry.version": "1.0.0",
      "climpt.success": true,
    });
    expect(run?.attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
    const steps = spans.filter((span) => span.name.startsWith("step "));
    expect(steps.map((span) => span.name)).toEqual([
      "step initial.analyze",
      "step continuation.implement",
      "step verification.verify",
      "step closure.fix",
      "step continuation.implement",
      "step verification.verify",
      "step closure.fix",
    ]);
    expect(steps.every((span) => span.parent === run)).toBe(true);
    expect(steps[0]?.attributes).toMatchObject({
      "gen_ai.agent.name": "fix-bug",
      "gen_ai.conversation.id": runId,
      "gen_ai.request.model": "claude-sonnet-5-5",
      "climpt.step.id": "initial.analyze",
      "climpt.prompt.file": "prompts/steps/initial/analyze/f_default.md",
    });
    expect(steps[0]?.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
    // The retry iteration's prompt was the validation retry prompt, not a file.
    expect(steps[4]?.attributes["climpt.prompt.file"]).toBe("retry");
    expect(steps[4]?.attributes["climpt.retry"]).toBe(true);

    const calls = spans.filter((span) => span.name.startsWith("chat "));
    expect(calls).toHaveLength(14);
    expect(calls.every((span) => span.parent !== undefined && steps.includes(span.parent))).toBe(
      true,
    );
    expect(calls.every((span) => span.kind === SpanKind.CLIENT)).toBe(true);
    const first = calls[0]?.attributes ?? {};
    expect(first).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "anthropic",
      "gen_ai.request.model": "claude-sonnet-5-5",
      "gen_ai.response.model": "claude-sonnet-5-5",
      "gen_ai.response.finish_reasons": ["tool_use"],
      "gen_ai.conversation.id": runId,
    });
    // input_tokens counts the cached part too; the cache counts are also given on their own.
    expect(first["gen_ai.usage.input_tokens"]).toBe(
      Number(first["climpt.usage.input_tokens"]) +
        Number(first["gen_ai.usage.cache_read.input_tokens"]) +
        Number(first["gen_ai.usage.cache_creation.input_tokens"]),
    );
    expect(first["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);

    const tools = spans.filter((span) => span.name.startsWith("execute_tool "));
    expect(tools.map((span) => span.name).slice(0, 3)).toEqual([
      "execute_tool Bash",
      "execute_tool Read",
      "execute_tool Edit",
    ]);
    expect(tools[0]?.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "Bash",
      "gen_ai.tool.call.id": "toolu_demo_01",
      "gen_ai.tool.type": "function",
      "climpt.step.id": "initial.analyze",
      // The failing test suite's exit code makes the Bash result an error.
      "error.type": "tool_error",
    });
    expect(tools[0]?.status?.code).toBe(SpanStatusCode.ERROR);
    expect(tools.every((span) => span.parent !== undefined && steps.includes(span.parent))).toBe(
      true,
    );

    const validators = byName("climpt.validator");
    expect(
      validators.map(
        (span) =>
          `${span.attributes["climpt.validator"]}:${span.attributes["climpt.validator.passed"]}`,
      ),
    ).toEqual(["git-clean:false", "tests:true", "git-clean:true", "tests:true"]);
    expect(spans.every((span) => span.ended)).toBe(true);
  });

  it("a resumed run's spans carry the agent and the registry version too", async () => {
    const { client, fake } = await fakeModel("fix-bug");
    const first = spans.length;
    try {
      const loaded = await loadAgentDefinition(path.join(EXAMPLES, "agents", "fix-bug"));
      const runner = new StepFlowRunner(loaded, { modelClient: client });
      const cwd = makeSampleRepo();
      const stopped = await runner.run({ args: { issue: 1 }, cwd, budgets: { maxTokens: 1 } });
      expect(stopped.error?.code).toBe("AGENT_BUDGET_EXCEEDED");
      const resumedFrom = spans.length;
      const resumed = await runner.run({ resume: stopped.runId, cwd });
      expect(resumed.success).toBe(true);
      const session = spans.slice(resumedFrom);
      expect(
        session.find((span) => span.name === "invoke_agent fix-bug")?.attributes,
      ).toMatchObject({
        "gen_ai.agent.name": "fix-bug",
        "gen_ai.conversation.id": stopped.runId,
        "climpt.agent": "fix-bug",
        "climpt.registry.version": "1.0.0",
        "climpt.run_id": stopped.runId,
        "climpt.resumed": true,
      });
      const steps = session.filter((span) => span.name.startsWith("step "));
      expect(steps.length).toBeGreaterThan(0);
      for (const span of steps) {
        expect(span.attributes).toMatchObject({
          "gen_ai.agent.name": "fix-bug",
          "climpt.agent": "fix-bug",
          "climpt.registry.version": "1.0.0",
        });
      }
    } finally {
      await fake.close();
    }
    expect(spans.slice(first).every((span) => span.ended)).toBe(true);
  });
});
