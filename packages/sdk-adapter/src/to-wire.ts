/**
 * climpt's request and response types to and from the SDK's. The only place that knows the
 * Messages API's field names, and the place that sets the prompt-cache breakpoints.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { JsonObject, JsonValue, ToolCall } from "@climpt/model";
import type { ConversationMessage, ModelContentBlock, ModelRequest, Usage } from "./types.ts";

type Params = Anthropic.Messages.MessageCreateParamsNonStreaming;

const EPHEMERAL = { type: "ephemeral" } as const;

function assistantBlockParam(block: ModelContentBlock): Anthropic.ContentBlockParam {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: block.input };
    case "thinking":
      return { type: "thinking", thinking: block.thinking, signature: block.signature };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: block.data };
    default:
      // Sent back exactly as the API sent it.
      return block.raw as unknown as Anthropic.ContentBlockParam;
  }
}

function messageParam(message: ConversationMessage): Anthropic.MessageParam {
  if (message.role === "assistant") {
    return { role: "assistant", content: message.content.map(assistantBlockParam) };
  }
  if (typeof message.content === "string") return { role: "user", content: message.content };
  return {
    role: "user",
    content: message.content.map(
      (block): Anthropic.ContentBlockParam =>
        block.type === "text"
          ? { type: "text", text: block.text }
          : {
              type: "tool_result",
              tool_use_id: block.toolUseId,
              content: block.content,
              ...(block.isError ? { is_error: true } : {}),
            },
    ),
  };
}

/**
 * Puts a cache breakpoint on the last block of the last message, so each turn of a tool loop
 * reads the turns before it from the cache instead of paying for them again. A one-message
 * conversation (a step's first call) gets none: its prompt is new by construction, and a write
 * costs more than a plain input token.
 */
function withConversationBreakpoint(messages: Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  if (messages.length < 2) return messages;
  const last = messages.at(-1);
  if (last === undefined) return messages;
  const content: Anthropic.ContentBlockParam[] =
    typeof last.content === "string" ? [{ type: "text", text: last.content }] : [...last.content];
  const tail = content.at(-1);
  if (tail === undefined || tail.type === "thinking" || tail.type === "redacted_thinking") {
    return messages;
  }
  content[content.length - 1] = {
    ...tail,
    cache_control: EPHEMERAL,
  } as Anthropic.ContentBlockParam;
  return [...messages.slice(0, -1), { ...last, content } as Anthropic.MessageParam];
}

/**
 * The SDK parameters of one call. Breakpoints (at most three of the API's four): the last tool
 * definition, the system prompt, and the conversation so far. The cached prefix runs tools →
 * system → messages, so steps that share a system prompt and tool set read both from the cache.
 */
export function toParams(request: ModelRequest, model: string): Params {
  const tools = request.tools ?? [];
  const params: Params = {
    model,
    max_tokens: request.maxTokens,
    messages: withConversationBreakpoint(request.messages.map(messageParam)),
  };
  if (request.system !== undefined && request.system !== "") {
    params.system = [{ type: "text", text: request.system, cache_control: EPHEMERAL }];
  }
  if (tools.length > 0) {
    params.tools = tools.map(
      (tool, index): Anthropic.Tool => ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
        ...(index === tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
      }),
    );
  }
  if (request.outputSchema !== undefined) {
    params.output_config = { format: { type: "json_schema", schema: request.outputSchema } };
  }
  return params;
}

function toJsonValue(value: unknown): JsonValue {
  // The SDK hands us parsed JSON; a round trip drops anything that is not (e.g. lazy getters).
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}

export function fromContentBlock(block: Anthropic.ContentBlock): ModelContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: toJsonValue(block.input) };
    case "thinking":
      return { type: "thinking", thinking: block.thinking, signature: block.signature };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: block.data };
    default:
      return { type: "opaque", raw: toJsonValue(block) as JsonObject };
  }
}

export function toolCallsOf(content: readonly ModelContentBlock[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const block of content) {
    if (block.type === "tool_use")
      calls.push({ id: block.id, name: block.name, input: block.input });
  }
  return calls;
}

export function textOf(content: readonly ModelContentBlock[]): string {
  return content
    .filter((block): block is Extract<ModelContentBlock, { type: "text" }> => block.type === "text")
    .map((block) => block.text)
    .join("");
}

export function usageOf(usage: Anthropic.Usage): Usage {
  return {
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    cacheCreationInputTokens: usage.cache_creation_input_tokens ?? 0,
    cacheReadInputTokens: usage.cache_read_input_tokens ?? 0,
  };
}

/** The reply text as JSON when it parses as it stands; salvage is runStep's business. */
export function parseStructured(text: string): JsonValue | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  try {
    return JSON.parse(trimmed) as JsonValue;
  } catch {
    return undefined;
  }
}
