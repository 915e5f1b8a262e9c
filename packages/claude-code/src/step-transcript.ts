import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import type { JsonObject, JsonValue } from "@climpt/model";
import {
  addUsage,
  type ConversationMessage,
  costOf,
  type ModelContentBlock,
  type StepEvent,
  type StepProgress,
  type StopReason,
  type ToolCall,
  type ToolCallRecord,
  type ToolResult,
  type Usage,
  type UserContentBlock,
  ZERO_USAGE,
} from "@climpt/sdk-adapter";
import { STRUCTURED_OUTPUT_TOOL } from "./tool-access.ts";

/** The user turn Claude Code adds when the model answered without calling StructuredOutput. */
const ENFORCE_MARKER = "[structured-output-enforce]";

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** A wire usage object (`input_tokens`, …) as climpt's Usage. */
export function usageOf(wire: unknown): Usage {
  if (!isRecord(wire)) return ZERO_USAGE;
  return {
    inputTokens: num(wire.input_tokens),
    outputTokens: num(wire.output_tokens),
    cacheCreationInputTokens: num(wire.cache_creation_input_tokens),
    cacheReadInputTokens: num(wire.cache_read_input_tokens),
  };
}

function toJson(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}

function modelBlock(block: Json): ModelContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: String(block.text ?? "") };
    case "tool_use":
      return {
        type: "tool_use",
        id: String(block.id),
        name: String(block.name),
        input: toJson(block.input),
      };
    case "thinking":
      return {
        type: "thinking",
        thinking: String(block.thinking ?? ""),
        signature: String(block.signature ?? ""),
      };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: String(block.data ?? "") };
    default:
      return { type: "opaque", raw: toJson(block) as JsonObject };
  }
}

/** A tool_result's content (a string or content blocks) as the text the model read. */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) =>
      isRecord(block) && block.type === "text"
        ? String(block.text ?? "")
        : `[${String(block?.type)}]`,
    )
    .join("\n");
}

interface PendingTool {
  readonly call: ToolCall;
  readonly turn: number;
  readonly at: number;
  announced: boolean;
}

interface OpenCall {
  readonly turn: number;
  readonly messageId: string;
  readonly started: number;
  model: string;
  usage: Usage;
  stopReason: StopReason | null;
  requestId?: string;
  closed: boolean;
}

/** One finished model call with what it said: the journal's record of a reply. */
export interface ModelReply {
  readonly turn: number;
  readonly content: readonly ModelContentBlock[];
  readonly usage: Usage;
  readonly costUsd: number;
  readonly stopReason: StopReason | null;
  readonly model: string;
  readonly requestId: string | null;
  readonly durationMs: number;
}

export interface StepTranscriptOptions {
  readonly prompt: string;
  readonly model: string;
  /** Each finished call with its content blocks (the `model-response` event carries none). */
  readonly onReply?: (reply: ModelReply) => void;
  readonly onEvent?: (event: StepEvent) => void;
  readonly onTextDelta?: (delta: string) => void;
}

/**
 * Turns the SDK's message stream of one session into what the default executor reports: the
 * conversation, one `model-request` / `model-response` per model call, `tool-call` /
 * `tool-result` per tool, the calls' usage and request ids. Only the main conversation counts:
 * subagents' messages (with a `parent_tool_use_id`) are theirs; their spend arrives in the
 * result's totals.
 */
export class StepTranscript {
  readonly transcript: ConversationMessage[];
  readonly toolCalls: ToolCallRecord[] = [];
  readonly requestIds: string[] = [];
  /** Whether the model was asked again for its output (a nudge or a rejected StructuredOutput). */
  repaired = false;
  /** Stop reason and model of the last main-loop call. */
  lastStopReason: StopReason | null = null;
  lastModel: string;

  private readonly options: StepTranscriptOptions;
  private readonly emit: (event: StepEvent) => void;
  private readonly calls: OpenCall[] = [];
  private readonly pendingTools = new Map<string, PendingTool>();
  /** The id of the model reply the last transcript entry holds, while its blocks arrive. */
  private openAssistantId: string | undefined;
  private usageSoFar: Usage = ZERO_USAGE;
  private costSoFar = 0;

  constructor(options: StepTranscriptOptions) {
    this.options = options;
    this.emit = options.onEvent ?? (() => {});
    this.transcript = [{ role: "user", content: options.prompt }];
    this.lastModel = options.model;
  }

  /** The text blocks of the last model reply, joined (empty when it only called tools). */
  get lastText(): string {
    for (let index = this.transcript.length - 1; index >= 0; index--) {
      const message = this.transcript[index];
      if (message?.role !== "assistant") continue;
      return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    }
    return "";
  }

  /** Model calls seen so far. */
  get turns(): number {
    return this.calls.length;
  }

  /** What the step had spent and said, for an error that ends it part-way. */
  progress(): StepProgress {
    return {
      usage: this.usageSoFar,
      costUsd: this.costSoFar,
      calls: this.calls.length,
      transcript: [...this.transcript],
    };
  }

  accept(message: SDKMessage): void {
    switch (message.type) {
      case "stream_event":
        if (message.parent_tool_use_id === null) this.onStreamEvent(message.event as unknown);
        return;
      case "assistant":
        if (message.parent_tool_use_id === null) {
          this.onAssistant(message.message as unknown, message.request_id);
        }
        return;
      case "user":
        if (message.parent_tool_use_id === null) this.onUser(message.message as unknown);
        return;
      default:
        return;
    }
  }

  private current(): OpenCall | undefined {
    return this.calls[this.calls.length - 1];
  }

  private onStreamEvent(event: unknown): void {
    if (!isRecord(event)) return;
    if (event.type === "message_start" && isRecord(event.message)) {
      const id = String(event.message.id);
      const turn = this.calls.length + 1;
      const last = this.transcript[this.transcript.length - 1];
      const repair =
        last?.role === "user" &&
        typeof last.content !== "string" &&
        last.content.some((block) => block.type === "text" && block.text.includes(ENFORCE_MARKER));
      this.calls.push({
        turn,
        messageId: id,
        started: performance.now(),
        model: String(event.message.model ?? this.options.model),
        usage: usageOf(event.message.usage),
        stopReason: null,
        closed: false,
      });
      this.emit({
        type: "model-request",
        turn,
        model: this.options.model,
        messages: this.transcript.length,
        repair,
      });
      return;
    }
    const call = this.current();
    if (call === undefined || call.closed) return;
    if (event.type === "content_block_delta" && isRecord(event.delta)) {
      if (event.delta.type === "text_delta" && typeof event.delta.text === "string") {
        this.options.onTextDelta?.(event.delta.text);
      }
      return;
    }
    if (event.type === "message_delta") {
      // The delta's usage is cumulative for the call; it replaces what message_start said.
      if (isRecord(event.usage)) call.usage = { ...call.usage, ...definedUsage(event.usage) };
      if (isRecord(event.delta) && typeof event.delta.stop_reason === "string") {
        call.stopReason = event.delta.stop_reason;
      }
      // The usage and stop reason are final now: the call is over for climpt's purposes.
      this.closeCall(call);
      return;
    }
    if (event.type === "message_stop") this.closeCall(call);
  }

  private closeCall(call: OpenCall): void {
    if (call.closed) return;
    call.closed = true;
    const cost = costOf(call.usage, call.model);
    this.usageSoFar = addUsage(this.usageSoFar, call.usage);
    this.costSoFar += cost ?? 0;
    this.lastStopReason = call.stopReason;
    this.lastModel = call.model;
    const durationMs = performance.now() - call.started;
    this.options.onReply?.({
      turn: call.turn,
      content: this.contentOf(call.messageId),
      usage: call.usage,
      costUsd: cost ?? 0,
      stopReason: call.stopReason,
      model: call.model,
      requestId: call.requestId ?? null,
      durationMs,
    });
    this.emit({
      type: "model-response",
      turn: call.turn,
      model: call.model,
      stopReason: call.stopReason,
      usage: call.usage,
      costUsd: cost ?? 0,
      ...(call.requestId === undefined ? {} : { requestId: call.requestId }),
      durationMs,
    });
    for (const pending of this.pendingTools.values()) {
      if (pending.turn === call.turn) this.announce(pending);
    }
  }

  /**
   * The blocks of the reply with this message id. Claude Code streams each block as its own
   * assistant message when the block ends, so by the reply's `message_delta` all have arrived.
   */
  private contentOf(messageId: string): readonly ModelContentBlock[] {
    const last = this.transcript[this.transcript.length - 1];
    return last?.role === "assistant" && this.openAssistantId === messageId ? last.content : [];
  }

  private announce(pending: PendingTool): void {
    if (pending.announced) return;
    pending.announced = true;
    if (pending.call.name !== STRUCTURED_OUTPUT_TOOL) {
      this.emit({ type: "tool-call", turn: pending.turn, call: pending.call });
    }
  }

  /** Each assistant message carries one content block; blocks of one call share the message id. */
  private onAssistant(message: unknown, requestId: string | undefined): void {
    if (!isRecord(message) || !Array.isArray(message.content)) return;
    const id = String(message.id);
    const call = this.calls.find((open) => open.messageId === id);
    if (requestId !== undefined) {
      if (call !== undefined) call.requestId = requestId;
      if (!this.requestIds.includes(requestId)) this.requestIds.push(requestId);
    }
    const blocks = message.content.filter(isRecord).map(modelBlock);
    const last = this.transcript[this.transcript.length - 1];
    if (last?.role === "assistant" && this.openAssistantId === id) {
      this.transcript[this.transcript.length - 1] = {
        role: "assistant",
        content: [...last.content, ...blocks],
      };
    } else {
      this.transcript.push({ role: "assistant", content: blocks });
      this.openAssistantId = id;
    }
    const turn = call?.turn ?? this.calls.length;
    for (const block of blocks) {
      if (block.type !== "tool_use") continue;
      const toolCall: ToolCall = { id: block.id, name: block.name, input: block.input };
      const pending: PendingTool = {
        call: toolCall,
        turn,
        at: performance.now(),
        announced: false,
      };
      this.pendingTools.set(block.id, pending);
      // Announced after the call's model-response, the order the default executor reports in;
      // Claude Code streams the tool_use block before the reply has ended.
      if (call === undefined || call.closed) this.announce(pending);
    }
  }

  private onUser(message: unknown): void {
    if (!isRecord(message)) return;
    this.openAssistantId = undefined;
    const content = message.content;
    const blocks: UserContentBlock[] = [];
    if (typeof content === "string") {
      blocks.push({ type: "text", text: content });
    } else if (Array.isArray(content)) {
      for (const block of content.filter(isRecord)) {
        if (block.type === "tool_result") {
          blocks.push(this.onToolResult(block));
        } else if (block.type === "text") {
          const text = String(block.text ?? "");
          if (text.includes(ENFORCE_MARKER)) this.repaired = true;
          blocks.push({ type: "text", text });
        }
      }
    }
    if (blocks.length > 0) this.transcript.push({ role: "user", content: blocks });
  }

  private onToolResult(block: Json): UserContentBlock {
    const id = String(block.tool_use_id);
    const result: ToolResult = {
      content: resultText(block.content),
      isError: block.is_error === true,
    };
    const pending = this.pendingTools.get(id);
    if (pending !== undefined) {
      this.pendingTools.delete(id);
      this.announce(pending);
      if (pending.call.name === STRUCTURED_OUTPUT_TOOL) {
        if (result.isError) {
          this.repaired = true;
          this.emit({
            type: "repair",
            turn: pending.turn,
            reason: "schema-invalid",
            errors: [result.content],
          });
        }
      } else {
        const durationMs = performance.now() - pending.at;
        this.toolCalls.push({ turn: pending.turn, call: pending.call, result, durationMs });
        this.emit({
          type: "tool-result",
          turn: pending.turn,
          call: pending.call,
          result,
          durationMs,
        });
      }
    }
    return { type: "tool_result", toolUseId: id, content: result.content, isError: result.isError };
  }

  /** Called when the stream ends: a call cut off mid-stream still counts. */
  finish(): void {
    const call = this.current();
    if (call !== undefined) this.closeCall(call);
  }
}

function definedUsage(wire: Json): Partial<Usage> {
  const out: { -readonly [K in keyof Usage]?: number } = {};
  if (typeof wire.input_tokens === "number") out.inputTokens = wire.input_tokens;
  if (typeof wire.output_tokens === "number") out.outputTokens = wire.output_tokens;
  if (typeof wire.cache_creation_input_tokens === "number") {
    out.cacheCreationInputTokens = wire.cache_creation_input_tokens;
  }
  if (typeof wire.cache_read_input_tokens === "number") {
    out.cacheReadInputTokens = wire.cache_read_input_tokens;
  }
  return out;
}
