/**
 * The run's MCP servers (agent.json `runner.boundaries.mcpServers`): one set per run session,
 * started lazily by the first step that may use them and stopped when the run ends
 * (@climpt/tools mcp-servers.ts says why per run rather than per step). A replayed run
 * (`--replay`) starts none: its MCP tools and their results come from the cassette, which holds
 * every request the recording sent — the tools offered, and each tool_result sent back.
 */
import type {
  JsonValue,
  LoadedAgent,
  SecretScrubber,
  ToolDefinition,
  ToolResult,
} from "@climpt/model";
import { parseMcpToolName } from "@climpt/model";
import { type CassetteEntry, readCassette } from "@climpt/sdk-adapter";
import {
  createMcpServers,
  createRecordedMcpServers,
  type McpRecording,
  type McpServers,
  type ProtectedPath,
} from "@climpt/tools";
import type { RunnerOptions, RunOptions } from "./run-options.ts";

export interface RunMcpInputs {
  readonly loaded: LoadedAgent;
  readonly runnerOptions: RunnerOptions;
  readonly runOptions: RunOptions;
  readonly cwd: string;
  readonly scrubber: SecretScrubber;
  readonly protectedPaths: readonly ProtectedPath[];
  readonly onNotice: (notice: { code: string; message: string }) => void;
}

export function runMcpServers(inputs: RunMcpInputs): McpServers | undefined {
  const { agent } = inputs.loaded;
  const servers = agent.mcpServers;
  if (servers === undefined || Object.keys(servers).length === 0) return undefined;
  if (inputs.runOptions.replay !== undefined) {
    return createRecordedMcpServers(mcpRecordingOf(readCassette(inputs.runOptions.replay)));
  }
  const sandbox = agent.sandbox;
  return createMcpServers({
    servers,
    cwd: inputs.cwd,
    ...(sandbox === undefined
      ? {}
      : {
          sandbox: {
            mode: sandbox.mode,
            network: { allow: sandbox.networkAllow },
            readable: sandbox.readable,
          },
        }),
    ...(inputs.runnerOptions.env === undefined ? {} : { env: inputs.runnerOptions.env }),
    scrubber: inputs.scrubber,
    ...(agent.secretEnvNames === undefined ? {} : { secrets: { env: agent.secretEnvNames } }),
    protectedPaths: inputs.protectedPaths,
    onNotice: inputs.onNotice,
  });
}

interface RecordedBlock {
  readonly type?: unknown;
  readonly id?: unknown;
  readonly name?: unknown;
  readonly toolUseId?: unknown;
  readonly content?: unknown;
  readonly isError?: unknown;
}

function blocksOf(message: JsonValue | undefined): readonly RecordedBlock[] {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return [];
  const content = (message as { content?: unknown }).content;
  return Array.isArray(content) ? (content as RecordedBlock[]) : [];
}

/**
 * What a cassette recorded of the MCP tools: the definitions its requests offered (first seen
 * per name), and for every MCP tool_use the result the next request sent back. A request's new
 * tool results are in its last message, answering the tool_use blocks of the one before.
 */
export function mcpRecordingOf(entries: readonly CassetteEntry[]): McpRecording {
  const definitions = new Map<string, ToolDefinition>();
  const results = new Map<string, ToolResult[]>();
  for (const entry of entries) {
    const request = entry.request as { tools?: unknown; messages?: unknown };
    for (const tool of Array.isArray(request.tools) ? (request.tools as ToolDefinition[]) : []) {
      if (parseMcpToolName(tool.name) !== undefined && !definitions.has(tool.name)) {
        definitions.set(tool.name, tool);
      }
    }
    const messages = Array.isArray(request.messages) ? (request.messages as JsonValue[]) : [];
    const asked = new Map<string, string>();
    for (const block of blocksOf(messages.at(-2))) {
      if (
        block.type === "tool_use" &&
        typeof block.id === "string" &&
        typeof block.name === "string"
      )
        asked.set(block.id, block.name);
    }
    for (const block of blocksOf(messages.at(-1))) {
      if (block.type !== "tool_result" || typeof block.toolUseId !== "string") continue;
      const name = asked.get(block.toolUseId);
      if (name === undefined || parseMcpToolName(name) === undefined) continue;
      const result: ToolResult = {
        content: typeof block.content === "string" ? block.content : JSON.stringify(block.content),
        isError: block.isError === true,
      };
      const list = results.get(block.toolUseId);
      if (list === undefined) results.set(block.toolUseId, [result]);
      else list.push(result);
    }
  }
  return { definitions: [...definitions.values()], results };
}
