import type { JsonSchema, JsonValue, StepKind, ToolResult } from "@climpt/model";
import type { BoundaryRequestLog } from "./boundary-request.ts";
import type { WorkingRoot } from "./confine-path.ts";
import type { ToolName } from "./tool-names.ts";

/** What a tool needs from the toolbox that runs it. */
export interface ToolContext {
  readonly root: WorkingRoot;
  readonly outputCapBytes: number;
  readonly bashTimeoutMs: number;
  /** The environment of every subprocess: the caller's, minus model credentials, plus overrides. */
  readonly env: Readonly<Record<string, string>>;
  readonly ghCommand: string;
  readonly boundary: BoundaryRequestLog;
  /** The kind of the step the tools serve: a closure step may label issues from Bash. */
  readonly stepKind: StepKind;
}

/**
 * The outcome of checking one call before anything happens: bad input, a per-call policy refusal
 * (a path outside the working directory, a boundary Bash command), or the work to do.
 */
export type PreparedCall =
  | { readonly kind: "invalid"; readonly problems: readonly string[] }
  | { readonly kind: "refused"; readonly code: string; readonly reason: string }
  | { readonly kind: "run"; readonly run: (signal?: AbortSignal) => Promise<ToolResult> };

export interface BuiltinTool {
  readonly name: ToolName;
  /** Written for the model: what the tool does, its limits, and what it refuses. */
  readonly description: string;
  readonly inputSchema: JsonSchema;
  prepare(input: JsonValue, context: ToolContext): PreparedCall;
}

export function success(content: string): ToolResult {
  return { content, isError: false };
}

/** A tool error the model can act on; `code` is from TOOL_CODES. */
export function failure(code: string, message: string): ToolResult {
  return { content: `${code}: ${message}`, isError: true };
}
