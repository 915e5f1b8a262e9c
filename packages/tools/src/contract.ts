/**
 * The tool-execution contract shared with `@climpt/sdk-adapter`. This package does not depend on
 * the adapter: the shapes are copied here and match structurally, so a `Toolbox` can be handed to
 * the adapter's tool loop as its `ToolExecutor` without either package importing the other.
 */
import type { JsonSchema, JsonValue } from "@climpt/registry-schema";

/** One tool as the model sees it. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/** A `tool_use` block from the model. */
export interface ToolCall {
  id: string;
  name: string;
  input: JsonValue;
}

/** What goes back to the model as the `tool_result` block. */
export interface ToolResult {
  content: string;
  isError: boolean;
}

export interface ToolExecutor {
  readonly definitions: readonly ToolDefinition[];
  execute(call: ToolCall, signal?: AbortSignal): Promise<ToolResult>;
}
