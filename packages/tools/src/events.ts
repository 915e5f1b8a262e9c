import type { JsonValue } from "@climpt/model";

/** A call the policy let through, before it runs. */
export interface ToolCallEvent {
  readonly type: "tool_call";
  readonly id: string;
  readonly tool: string;
  readonly input: JsonValue;
}

/** What the call returned to the model (also for input errors and tool failures). */
export interface ToolResultEvent {
  readonly type: "tool_result";
  readonly id: string;
  readonly tool: string;
  readonly isError: boolean;
  readonly content: string;
  readonly durationMs: number;
}

/** A call the policy refused: it never ran. `code` is a TOOL-POLICY-* code. */
export interface ToolRefusedEvent {
  readonly type: "tool_refused";
  readonly id: string;
  readonly tool: string;
  readonly code: string;
  readonly reason: string;
  readonly input: JsonValue;
}

export type ToolEvent = ToolCallEvent | ToolResultEvent | ToolRefusedEvent;
