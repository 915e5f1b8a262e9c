/**
 * The Messages API wire format as @anthropic-ai/sdk 1.12 reads it: the JSON `Message` of a
 * non-streaming reply and the server-sent events of a streaming one.
 */

import type { FakeContentBlock, FakeStopReason, FakeUsageOverride } from "./replies.ts";
import type { PromptAccounting } from "./token-count.ts";
import { pseudoTokens } from "./token-count.ts";

export interface WireUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  server_tool_use: null;
  service_tier: "standard";
  inference_geo: null;
  output_tokens_details: null;
}

export type WireContentBlock =
  | { type: "text"; text: string; citations: null }
  | { type: "tool_use"; id: string; name: string; input: unknown; caller: { type: "direct" } }
  | { type: "thinking"; thinking: string; signature: string };

export interface WireMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: WireContentBlock[];
  stop_reason: FakeStopReason | null;
  stop_sequence: null;
  stop_details: null | { type: "refusal"; category: null; explanation: string | null };
  container: null;
  diagnostics: null;
  usage: WireUsage;
}

export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
}

export function wireContent(
  content: readonly FakeContentBlock[],
  nextToolId: () => string,
): WireContentBlock[] {
  return content.map((block): WireContentBlock => {
    switch (block.type) {
      case "text":
        return { type: "text", text: block.text, citations: null };
      case "tool_use":
        return {
          type: "tool_use",
          id: block.id ?? nextToolId(),
          name: block.name,
          input: block.input,
          caller: { type: "direct" },
        };
      default:
        return { type: "thinking", thinking: block.thinking, signature: block.signature };
    }
  });
}

export function wireUsage(
  prompt: PromptAccounting,
  content: readonly WireContentBlock[],
  override: FakeUsageOverride = {},
): WireUsage {
  const cacheCreation = override.cache_creation_input_tokens ?? prompt.cacheCreationInputTokens;
  return {
    input_tokens: override.input_tokens ?? prompt.inputTokens,
    output_tokens:
      override.output_tokens ?? pseudoTokens(Buffer.byteLength(JSON.stringify(content))),
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: override.cache_read_input_tokens ?? prompt.cacheReadInputTokens,
    cache_creation: { ephemeral_5m_input_tokens: cacheCreation, ephemeral_1h_input_tokens: 0 },
    server_tool_use: null,
    service_tier: "standard",
    inference_geo: null,
    output_tokens_details: null,
  };
}

export function defaultStopReason(content: readonly FakeContentBlock[]): FakeStopReason {
  return content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
}

function chunks(text: string, size: number): string[] {
  if (text === "") return [];
  const out: string[] = [];
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size));
  return out;
}

/**
 * The events of one streamed message, in the order the API sends them. `message_start` carries
 * the prompt's usage and one output token; `message_delta` carries the cumulative usage.
 */
export function streamEvents(message: WireMessage, chunkSize: number): SseEvent[] {
  const start: WireMessage = {
    ...message,
    content: [],
    stop_reason: null,
    stop_details: null,
    usage: { ...message.usage, output_tokens: 1 },
  };
  const events: SseEvent[] = [
    { event: "message_start", data: { type: "message_start", message: start } },
    { event: "ping", data: { type: "ping" } },
  ];
  message.content.forEach((block, index) => {
    switch (block.type) {
      case "text":
        events.push({
          event: "content_block_start",
          data: {
            type: "content_block_start",
            index,
            content_block: { type: "text", text: "", citations: null },
          },
        });
        for (const piece of chunks(block.text, chunkSize)) {
          events.push({
            event: "content_block_delta",
            data: {
              type: "content_block_delta",
              index,
              delta: { type: "text_delta", text: piece },
            },
          });
        }
        break;
      case "tool_use":
        events.push({
          event: "content_block_start",
          data: {
            type: "content_block_start",
            index,
            content_block: { ...block, input: {} },
          },
        });
        for (const piece of chunks(JSON.stringify(block.input ?? {}), chunkSize)) {
          events.push({
            event: "content_block_delta",
            data: {
              type: "content_block_delta",
              index,
              delta: { type: "input_json_delta", partial_json: piece },
            },
          });
        }
        break;
      case "thinking":
        events.push({
          event: "content_block_start",
          data: {
            type: "content_block_start",
            index,
            content_block: { type: "thinking", thinking: "", signature: "" },
          },
        });
        for (const piece of chunks(block.thinking, chunkSize)) {
          events.push({
            event: "content_block_delta",
            data: {
              type: "content_block_delta",
              index,
              delta: { type: "thinking_delta", thinking: piece },
            },
          });
        }
        events.push({
          event: "content_block_delta",
          data: {
            type: "content_block_delta",
            index,
            delta: { type: "signature_delta", signature: block.signature },
          },
        });
        break;
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  events.push({
    event: "message_delta",
    data: {
      type: "message_delta",
      delta: {
        stop_reason: message.stop_reason,
        stop_sequence: null,
        stop_details: message.stop_details,
      },
      usage: {
        input_tokens: message.usage.input_tokens,
        output_tokens: message.usage.output_tokens,
        cache_creation_input_tokens: message.usage.cache_creation_input_tokens,
        cache_read_input_tokens: message.usage.cache_read_input_tokens,
        server_tool_use: null,
        output_tokens_details: null,
      },
    },
  });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return events;
}

export function formatSse(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
