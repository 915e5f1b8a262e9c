/**
 * `acceptedOutputSchema`: the model is sent the step's schema as written, and a reply is checked
 * against the wider accepted schema (an intent enum with its aliases), so `"retry"` under an enum
 * of `repeat` passes and reaches the gate.
 */
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicClient } from "./anthropic-client.ts";
import { StepError } from "./errors.ts";
import { type RunStepOptions, runStep } from "./run-step.ts";
import { FAKE_KEY, INTENT_SCHEMA } from "./sdk-adapter.test-helper.ts";

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

const ACCEPTED = {
  ...INTENT_SCHEMA,
  properties: {
    intent: {
      type: "string",
      enum: ["next", "repeat", "continue", "pass", "retry", "wait", "fail"],
    },
    summary: { type: "string" },
  },
};

function options(overrides: Partial<RunStepOptions> = {}): RunStepOptions {
  return {
    client: createAnthropicClient({ apiKey: FAKE_KEY, baseURL: fake.url, maxRetries: 0 }),
    model: "sonnet",
    prompt: "Report your intent.",
    outputSchema: INTENT_SCHEMA,
    maxTurns: 2,
    ...overrides,
  };
}

describe("runStep with an accepted schema", () => {
  it("accepts an alias the sent schema lacks, and sends the schema as written", async () => {
    fake.enqueue(reply.json({ intent: "retry", summary: "again" }));
    const result = await runStep(options({ acceptedOutputSchema: ACCEPTED }));
    expect(result.output).toEqual({ intent: "retry", summary: "again" });
    const body = fake.messageRequests()[0]?.body as { output_config: unknown };
    expect(body.output_config).toEqual({ format: { type: "json_schema", schema: INTENT_SCHEMA } });
  });

  it("without it, the same reply fails the schema (after the repair turn)", async () => {
    fake.enqueue(
      reply.json({ intent: "retry", summary: "again" }),
      reply.json({ intent: "retry", summary: "again" }),
    );
    const error = await runStep(options()).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StepError);
    expect((error as StepError).reason).toBe("schema-invalid");
  });
});
