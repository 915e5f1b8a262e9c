import type { JsonSchema } from "@climpt/model";
import { type FakeAnthropic, type FakeRequest, reply, startFakeAnthropic } from "@climpt/testing";
import { cannedOutput } from "./instant-model-client.ts";

/** The schema a Messages request carries in `output_config.format`, if any. */
export function requestSchema(request: FakeRequest): JsonSchema {
  const body = request.body as { output_config?: { format?: { schema?: JsonSchema } } } | undefined;
  return body?.output_config?.format?.schema ?? {};
}

/**
 * The fake Messages API answering every request of a generated chain like the instant model
 * does: the step's forward intent and its handoff, as structured output through the real wire
 * format, after `delayMs`.
 */
export async function startChainFake(delayMs = 0): Promise<FakeAnthropic> {
  const fake = await startFakeAnthropic();
  fake.setHandler((request) =>
    reply.json(cannedOutput(requestSchema(request)), delayMs > 0 ? { delayMs } : {}),
  );
  return fake;
}
