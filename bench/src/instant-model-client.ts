import type { JsonSchema, JsonValue } from "@climpt/model";
import type { ModelClient, ModelRequest, ModelResponse } from "@climpt/sdk-adapter";

/** Intents a chain step can take forward, in the order the client prefers them. */
const FORWARD_INTENTS = ["next", "handoff", "closing"] as const;

/**
 * A zero-latency model in the process: `call()` answers at once with the canned structured
 * output of a chain step (no HTTP, no SDK). The intent is the first of next / handoff / closing
 * the step's schema allows, so a generated chain runs straight through to its closure. Replies
 * are built once per schema object (the runner passes each step's loaded schema object).
 * `onCall` sees the moment of every call: the time between two calls is everything the runtime
 * does around the model.
 */
export class InstantModelClient implements ModelClient {
  private readonly replies = new WeakMap<object, ModelResponse>();
  calls = 0;

  constructor(private readonly onCall?: (at: number) => void) {}

  call(request: ModelRequest): Promise<ModelResponse> {
    this.onCall?.(performance.now());
    this.calls += 1;
    const schema = request.outputSchema ?? {};
    let response = this.replies.get(schema);
    if (response === undefined) {
      response = cannedResponse(schema, request.model);
      this.replies.set(schema, response);
    }
    return Promise.resolve(response);
  }
}

function allowedIntents(schema: JsonSchema): readonly string[] {
  const nextAction = (schema.properties as Record<string, JsonSchema> | undefined)?.next_action;
  const action = (nextAction?.properties as Record<string, JsonSchema> | undefined)?.action;
  return Array.isArray(action?.enum) ? (action.enum as string[]) : [];
}

function handoffKeys(schema: JsonSchema): readonly string[] {
  const result = (schema.properties as Record<string, JsonSchema> | undefined)?.result;
  return Array.isArray(result?.required) ? (result.required as string[]) : [];
}

/** The structured output a chain step answers with: its forward intent and its handoff. */
export function cannedOutput(schema: JsonSchema): JsonValue {
  const allowed = allowedIntents(schema);
  const intent = FORWARD_INTENTS.find((candidate) => allowed.includes(candidate)) ?? "next";
  return {
    next_action: { action: intent, reason: "benchmark" },
    result: Object.fromEntries(handoffKeys(schema).map((key) => [key, `value of ${key}`])),
  };
}

function cannedResponse(schema: JsonSchema, model: string): ModelResponse {
  const output = cannedOutput(schema);
  const text = JSON.stringify(output);
  return {
    content: [{ type: "text", text }],
    text,
    toolCalls: [],
    structuredOutput: output,
    usage: {
      inputTokens: 400,
      outputTokens: 40,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 0,
    },
    costUsd: 0,
    priced: true,
    stopReason: "end_turn",
    model,
  };
}
