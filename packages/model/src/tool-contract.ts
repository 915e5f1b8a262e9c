/**
 * The tool contract between a model client and the tools it offers the model. The model client
 * (@climpt/sdk-adapter) calls a `ToolExecutor`; the built-in tools (@climpt/tools) are one. Both
 * take these shapes from here, so neither depends on the other and they cannot drift apart.
 */
import type { JsonSchema, JsonValue } from "./json.ts";

/** One tool as the model sees it. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /**
   * What the tool's provider says about its effects (an MCP server's tool annotations). Never
   * sent to the model; the policy and resume read it: `readOnlyHint` tools are the only ones a
   * `plan` step gets, and a `readOnlyHint` or `idempotentHint` call in flight at a crash runs
   * again on resume instead of being reported as "effect unknown". Recorded with the request in
   * a cassette, so a replay offers exactly the tools the recording did.
   */
  annotations?: ToolAnnotations;
}

/** The effect hints of a tool (the MCP specification's tool annotations). */
export interface ToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
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

/** Runs the model's tool calls; `definitions` are the tools offered in the request. */
export interface ToolExecutor {
  readonly definitions: readonly ToolDefinition[];
  execute(call: ToolCall, signal?: AbortSignal): Promise<ToolResult>;
}
