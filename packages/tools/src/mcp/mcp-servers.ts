/**
 * The MCP servers of one run. Lifetime: **per run**, started lazily — a server starts when the
 * first step whose policy grants one of its tools needs its tool list, and every server stops
 * when the run ends (`close`), kill -9 of climpt included (bubblewrap's --die-with-parent and the
 * lifetime watchdog, lifetime/process-life.ts). Not per step, because:
 * - a server's start (a Node process, a sandbox, the protocol handshake, the tool list) costs
 *   300–1000 ms, which a flow of many short steps would pay again and again;
 * - servers keep state the model builds on across steps (a browser page, a session, a cache);
 * - what changes between steps is which tools the step may call, and that is decided by the
 *   toolbox per step (mcp-policy.ts), not by the server: a tool the step does not get is neither
 *   offered nor runnable.
 * The sandbox a server runs in is the one Bash gets (working directory writable, the home
 * directory hidden, no secrets, the agent's network list); its gh broker answers with the rights
 * of a verification step (reads only), since a server acts for every step of the run.
 */
import {
  ClimptError,
  type JsonValue,
  type McpServerConfig,
  mcpToolName,
  type SecretScrubber,
  type ToolAnnotations,
  type ToolDefinition,
  type ToolResult,
} from "@climpt/model";
import { TOOL_CODES } from "../codes.ts";
import type { ProtectedPath } from "../protected-paths.ts";
import { createCommandSandbox } from "../sandbox/command-sandbox.ts";
import { resolveSandboxSettings, type SandboxSettingsInput } from "../sandbox/settings.ts";
import { connectMcpServer, type McpConnection } from "./mcp-connection.ts";
import { type McpCallOutcome, mcpResultText } from "./mcp-result.ts";

/** One tool a server offers, as the toolbox needs it. */
export interface McpTool {
  readonly server: string;
  readonly tool: string;
  readonly definition: ToolDefinition;
}

/** The MCP servers of a run: live ones, or a cassette's recording on replay. */
export interface McpServers {
  /**
   * Results come from a recording, already capped and scrubbed when they were made: the toolbox
   * passes them on unchanged (capping again would cut a capped text's marker).
   */
  readonly recorded?: boolean;
  /** The tools of these servers, starting each one not started yet (TOOL-MCP-001 if one fails). */
  tools(servers: readonly string[]): Promise<readonly McpTool[]>;
  /** Calls one tool; a failure of the server or the call is an error result, never a throw. */
  call(tool: McpTool, callId: string, input: JsonValue, signal?: AbortSignal): Promise<ToolResult>;
  /** Stops every server started. Idempotent. */
  close(): Promise<void>;
}

export const DEFAULT_MCP_CALL_TIMEOUT_MS: number = 2 * 60 * 1000;
export const DEFAULT_MCP_START_TIMEOUT_MS: number = 60 * 1000;

/** The Messages API's rule for tool names. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,128}$/;

export interface McpServersOptions {
  readonly servers: Readonly<Record<string, McpServerConfig>>;
  readonly cwd: string;
  /** agent.json `runner.boundaries.sandbox`, as the toolbox takes it. */
  readonly sandbox?: SandboxSettingsInput;
  /** Overrides of climpt's environment (`undefined` removes a variable). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The run's scrubber: error texts quote command lines and stderr, which may hold a secret. */
  readonly scrubber?: SecretScrubber;
  readonly secrets?: { readonly env?: readonly string[] };
  readonly protectedPaths?: readonly ProtectedPath[];
  readonly callTimeoutMs?: number;
  readonly startTimeoutMs?: number;
  /** Tools left out (a name the Messages API cannot take), said once per server. */
  readonly onNotice?: (notice: { code: string; message: string }) => void;
}

function hostEnvOf(overrides: McpServersOptions["env"]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...overrides })) {
    if (value !== undefined) env[key] = value;
  }
  return env;
}

function annotationsOf(raw: unknown): ToolAnnotations | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const record = raw as Record<string, unknown>;
  const out: Record<string, boolean> = {};
  for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
    if (typeof record[key] === "boolean") out[key] = record[key];
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

export function createMcpServers(options: McpServersOptions): McpServers {
  const scrub = (text: string): string => options.scrubber?.scrub(text) ?? text;
  const hostEnv = hostEnvOf(options.env);
  const settings = resolveSandboxSettings(options.sandbox);
  const sandbox =
    settings.mode === "off"
      ? ("off" as const)
      : createCommandSandbox({
          cwd: options.cwd,
          stepKind: "verification",
          ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
          ...(options.env === undefined ? {} : { env: options.env }),
          ...(options.scrubber === undefined ? {} : { scrubber: options.scrubber }),
          ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
          ...(options.protectedPaths === undefined
            ? {}
            : { protectedPaths: options.protectedPaths }),
        });
  const connections = new Map<string, Promise<McpConnection>>();
  const toolLists = new Map<string, Promise<McpTool[]>>();
  let closing = false;

  const connect = (name: string): Promise<McpConnection> => {
    let connection = connections.get(name);
    if (connection === undefined) {
      const config = options.servers[name];
      if (config === undefined) throw new Error(`no MCP server "${name}"`);
      connection = connectMcpServer({
        name,
        config,
        cwd: options.cwd,
        sandbox,
        networkAllow: settings.networkAllow,
        hostEnv,
        startTimeoutMs: options.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS,
        scrub,
      });
      connections.set(name, connection);
    }
    return connection;
  };

  const listTools = async (name: string): Promise<McpTool[]> => {
    const connection = await connect(name);
    const tools: McpTool[] = [];
    const skipped: string[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await connection.client.listTools(cursor === undefined ? {} : { cursor }, {
          timeout: options.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS,
        });
        for (const tool of page.tools) {
          const full = mcpToolName(name, tool.name);
          if (!TOOL_NAME.test(full)) {
            skipped.push(tool.name);
            continue;
          }
          const annotations = annotationsOf(tool.annotations);
          tools.push({
            server: name,
            tool: tool.name,
            definition: {
              name: full,
              description: tool.description ?? tool.title ?? `${tool.name} (MCP server ${name})`,
              inputSchema: tool.inputSchema as ToolDefinition["inputSchema"],
              ...(annotations === undefined ? {} : { annotations }),
            },
          });
        }
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      throw new ClimptError({
        code: TOOL_CODES.mcpStartFailed,
        message: scrub(
          `MCP server "${name}" (${connection.describe}) did not list its tools: ${(error as Error).message}.${tailText(connection)}`,
        ),
        hint: "Run the server by hand and check that it answers tools/list.",
      });
    }
    if (skipped.length > 0) {
      options.onNotice?.({
        code: TOOL_CODES.mcpStartFailed,
        message: `MCP server "${name}" offers tools whose names the Messages API cannot take (letters, digits, "_" and "-", at most 128 characters with the mcp__${name}__ prefix); they are left out: ${skipped.join(", ")}.`,
      });
    }
    return tools;
  };

  return {
    async tools(servers) {
      if (closing) return [];
      const lists = servers.map((name) => {
        let list = toolLists.get(name);
        if (list === undefined) {
          list = listTools(name);
          toolLists.set(name, list);
        }
        return list;
      });
      return (await Promise.all(lists)).flat();
    },
    async call(tool, _callId, input, signal) {
      const name = tool.definition.name;
      let connection: McpConnection;
      try {
        connection = await connect(tool.server);
      } catch (error) {
        return { content: scrub((error as Error).message), isError: true };
      }
      if (connection.closed()) return died(connection, name, "it had already ended");
      const timeoutMs = options.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS;
      try {
        const outcome = (await connection.client.callTool(
          { name: tool.tool, arguments: input as Record<string, unknown> },
          undefined,
          { timeout: timeoutMs, ...(signal === undefined ? {} : { signal }) },
        )) as McpCallOutcome;
        return mcpResultText(outcome);
      } catch (error) {
        if (signal?.aborted === true) {
          return {
            content: `${TOOL_CODES.mcpCallTimeout}: ${name} was stopped (the run was stopped or reached its time limit).`,
            isError: true,
          };
        }
        if (connection.closed()) return died(connection, name, (error as Error).message);
        const code = (error as { code?: unknown }).code;
        if (code === -32001) {
          return {
            content: `${TOOL_CODES.mcpCallTimeout}: ${name} did not answer within ${timeoutMs} ms; the call was cancelled.`,
            isError: true,
          };
        }
        // The server answered with a protocol error (unknown tool, invalid arguments): the
        // model can correct its call, so it is told as a tool error.
        return {
          content: scrub(
            `MCP server "${tool.server}" refused ${name}: ${(error as Error).message}`,
          ),
          isError: true,
        };
      }
    },
    async close() {
      closing = true;
      const all = [...connections.values()];
      connections.clear();
      await Promise.all(
        all.map((pending) => pending.then((c) => c.close()).catch(() => undefined)),
      );
    },
  };

  function tailText(connection: McpConnection): string {
    const tail = connection.stderrTail();
    return tail === "" ? "" : ` Its stderr ended with:\n${tail}`;
  }

  function died(connection: McpConnection, name: string, reason: string): ToolResult {
    const message = `${TOOL_CODES.mcpServerDied}: MCP server "${connection.name}" (${connection.describe}) ended during ${name}: ${reason}. It is not restarted in this run; its other tools fail the same way.${tailText(connection)}`;
    options.onNotice?.({ code: TOOL_CODES.mcpServerDied, message: scrub(message) });
    return { content: scrub(message), isError: true };
  }
}
