/**
 * An MCP tool result as the text a tool_result block carries. Text content stays text; images,
 * audio and binary resources are described, never pasted (base64 would fill the context and the
 * journal with nothing the model can read as text); structured content is added as JSON when the
 * text does not already carry it. Capping and secret scrubbing happen afterwards in the toolbox,
 * exactly as for the built-in tools' results.
 */
import type { ToolResult } from "@climpt/model";

interface ContentBlock {
  readonly type: string;
  readonly text?: unknown;
  readonly mimeType?: unknown;
  readonly data?: unknown;
  readonly uri?: unknown;
  readonly name?: unknown;
  readonly resource?: {
    readonly uri?: unknown;
    readonly mimeType?: unknown;
    readonly text?: unknown;
    readonly blob?: unknown;
  };
}

/** What `client.callTool` resolves to, as far as it is read here. */
export interface McpCallOutcome {
  readonly content?: readonly ContentBlock[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  /** The older protocol's result shape. */
  readonly toolResult?: unknown;
}

function base64Bytes(data: unknown): number {
  return typeof data === "string" ? Math.floor((data.length * 3) / 4) : 0;
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
    case "audio":
      return `[${block.type} ${String(block.mimeType ?? "")}, ${base64Bytes(block.data)} bytes, not shown]`;
    case "resource_link":
      return `[resource link: ${String(block.uri ?? "")}${block.name === undefined ? "" : ` (${String(block.name)})`}]`;
    case "resource": {
      const resource = block.resource ?? {};
      if (typeof resource.text === "string") {
        return `[resource ${String(resource.uri ?? "")}]\n${resource.text}`;
      }
      return `[resource ${String(resource.uri ?? "")} ${String(resource.mimeType ?? "")}, ${base64Bytes(resource.blob)} bytes, not shown]`;
    }
    default:
      return `[${block.type} content, not shown]`;
  }
}

export function mcpResultText(outcome: McpCallOutcome): ToolResult {
  if (outcome.content === undefined && outcome.toolResult !== undefined) {
    return { content: JSON.stringify(outcome.toolResult), isError: false };
  }
  const parts = (outcome.content ?? []).map(describeBlock).filter((part) => part !== "");
  let text = parts.join("\n");
  if (outcome.structuredContent !== undefined) {
    const json = JSON.stringify(outcome.structuredContent);
    // Servers usually repeat structured content as text; add it only when it is not there.
    if (!text.includes(json)) {
      text = text === "" ? json : `${text}\nStructured result: ${json}`;
    }
  }
  return { content: text === "" ? "(no output)" : text, isError: outcome.isError === true };
}
