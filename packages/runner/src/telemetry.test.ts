import path from "node:path";
import {
  type Attributes,
  type AttributeValue,
  type Context,
  type Span,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  type TimeInput,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import { afterAll, describe, expect, it } from "vitest";
import { loadAgentDefinition } from "./agent-location.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";
import { EXAMPLES, fakeModel, makeSampleRepo } from "./test-support.ts";

/** A span that remembers what the runner told it, and its parent. */
class RecordedSpan implements Span {
  readonly attributes: Attributes = {};
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
  it("run → step → model call, plus validators, tagged with step id, prompt file and registry version", async () => {
    const { client, fake } = await fakeModel("fix-bug");
    try {
      const loaded = await loadAgentDefinition(path.join(EXAMPLES, "agents", "fix-bug"));
      const result = await new StepFlowRunner(loaded, { modelClient: client }).run({
        args: { issue: 1 },
        cwd: makeSampleRepo(),
      });
      expect(result.success).toBe(true);
    } finally {
      await fake.close();
    }
    const byName = (name: string) => spans.filter((span) => span.name === name);
    const [run] = byName("climpt.run");
    expect(run?.attributes).toMatchObject({
      "climpt.agent": "fix-bug",
      "climpt.registry.version": "1.0.0",
      "climpt.success": true,
    });
    const steps = byName("climpt.step");
    expect(steps.map((span) => span.attributes["climpt.step.id"])).toEqual([
      "initial.analyze",
      "continuation.implement",
      "verification.verify",
      "closure.fix",
      "continuation.implement",
      "verification.verify",
      "closure.fix",
    ]);
    expect(steps.every((span) => span.parent === run)).toBe(true);
    expect(steps[0]?.attributes["climpt.prompt.file"]).toBe(
      "prompts/steps/initial/analyze/f_default.md",
    );
    // The retry iteration's prompt was the validation retry prompt, not a file.
    expect(steps[4]?.attributes["climpt.prompt.file"]).toBe("retry");
    const calls = byName("climpt.model_call");
    expect(calls).toHaveLength(14);
    expect(calls.every((span) => span.parent !== undefined && steps.includes(span.parent))).toBe(
      true,
    );
    expect(calls[0]?.attributes["climpt.usage.input_tokens"]).toBeGreaterThan(0);
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
      expect(session.find((span) => span.name === "climpt.run")?.attributes).toMatchObject({
        "climpt.agent": "fix-bug",
        "climpt.registry.version": "1.0.0",
        "climpt.run_id": stopped.runId,
        "climpt.resumed": true,
      });
      const steps = session.filter((span) => span.name === "climpt.step");
      expect(steps.length).toBeGreaterThan(0);
      for (const span of steps) {
        expect(span.attributes).toMatchObject({
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
