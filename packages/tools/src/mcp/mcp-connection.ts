/**
 * One connected MCP server, through the official client (`@modelcontextprotocol/sdk`): a stdio
 * server started INSIDE the OS sandbox the way Bash and the command validators are (the same
 * filesystem view and network allow list; an environment of only the sandbox's own variables
 * and what the entry declares), or an http server reached from the host, only at a host the
 * agent's network list declares. Nothing here speaks the protocol; it starts, watches and stops.
 */
import { ClimptError, hostAllowed, type McpServerConfig, urlHostPort } from "@climpt/model";
import { TOOL_CODES } from "../codes.ts";
import { loadMcpSdk, type McpSdk } from "../lazy-modules.ts";
import { bindToProcessLife, type ReleaseBinding } from "../lifetime/process-life.ts";
import type { CommandSandbox } from "../sandbox/command-sandbox.ts";
import {
  expandRecord,
  expandVariables,
  prepareStdioLaunch,
  type StdioLaunch,
} from "./mcp-stdio-launch.ts";

type Client = InstanceType<McpSdk["Client"]>;

/** How much of a server's stderr is kept for error messages (its last lines). */
const STDERR_TAIL_BYTES = 4096;

export interface McpConnectOptions {
  readonly name: string;
  readonly config: McpServerConfig;
  /** The run's working directory: a stdio server runs there. */
  readonly cwd: string;
  /** The sandbox stdio servers start in; `"off"`: the agent turned the sandbox off. */
  readonly sandbox: CommandSandbox | "off";
  /** The agent's network allow list: http servers are reached only at these hosts. */
  readonly networkAllow: readonly string[];
  /** climpt's environment, where `${VAR}` in the entry is looked up. */
  readonly hostEnv: Readonly<Record<string, string>>;
  /** How long `initialize` and the tool list may take. */
  readonly startTimeoutMs: number;
  /** Replaces secrets in what errors quote (the command line, the stderr tail). */
  readonly scrub: (text: string) => string;
}

export interface McpConnection {
  readonly name: string;
  /** The command line or url, for messages. */
  readonly describe: string;
  readonly client: Client;
  /** Whether the server went away (its process ended, the connection closed). */
  closed(): boolean;
  /** The last lines the server wrote to stderr (scrubbed), or "" when none or http. */
  stderrTail(): string;
  close(): Promise<void>;
}

function describeServer(config: McpServerConfig): string {
  return config.transport === "stdio" ? [config.command, ...config.args].join(" ") : config.url;
}

function startFailure(options: McpConnectOptions, reason: string, stderr: string): ClimptError {
  const tail = stderr === "" ? "" : ` Its stderr ended with:\n${stderr}`;
  return new ClimptError({
    code: TOOL_CODES.mcpStartFailed,
    message: options.scrub(
      `MCP server "${options.name}" (${describeServer(options.config)}) did not start: ${reason}.${tail}`,
    ),
    hint:
      options.config.transport === "stdio"
        ? "Run the command by hand in the working directory. Inside the OS sandbox it gets only the variables its env declares, an empty home directory, and no network unless runner.boundaries.sandbox.network.allow lists hosts; a server fetched by npx needs registry.npmjs.org there, or install it as a dependency."
        : "Check the url and headers, and that the host answers MCP over streamable HTTP.",
  });
}

/**
 * The MCP client is an optional peer dependency: a light install of climpt leaves its ~90
 * packages out (README: a light install), and an agent that declares servers asks for it here.
 */
async function mcpClient(): Promise<McpSdk> {
  try {
    return await loadMcpSdk();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") throw error;
    throw new ClimptError({
      code: TOOL_CODES.mcpClientMissing,
      message:
        "The agent declares MCP servers (runner.boundaries.mcpServers), but the MCP client @modelcontextprotocol/sdk is not installed.",
      hint: "Install it next to climpt: npm i -D @modelcontextprotocol/sdk (pnpm add -D @modelcontextprotocol/sdk).",
      cause: error,
    });
  }
}

export async function connectMcpServer(options: McpConnectOptions): Promise<McpConnection> {
  const sdk = await mcpClient();
  const client = new sdk.Client({ name: "climpt", version: "1" }, { capabilities: {} });
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  // Transport errors also surface as the failed request; nothing else to do with them here.
  client.onerror = () => undefined;
  return options.config.transport === "stdio"
    ? connectStdio(sdk, client, options, options.config, () => closed)
    : connectHttp(sdk, client, options, options.config, () => closed);
}

async function connectStdio(
  sdk: McpSdk,
  client: Client,
  options: McpConnectOptions,
  config: Extract<McpServerConfig, { transport: "stdio" }>,
  isClosed: () => boolean,
): Promise<McpConnection> {
  let launch: StdioLaunch;
  try {
    launch = await prepareStdioLaunch(config, options);
  } catch (error) {
    if (error instanceof ClimptError) throw error;
    throw startFailure(
      options,
      `the sandbox could not be prepared: ${(error as Error).message}`,
      "",
    );
  }
  const { env, cwd, release } = launch;
  const transport = new sdk.StdioClientTransport({
    command: launch.command,
    args: [...launch.args],
    env,
    cwd,
    stderr: "pipe",
  });
  let stderr = Buffer.alloc(0);
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr = Buffer.concat([stderr, chunk]);
    if (stderr.length > STDERR_TAIL_BYTES * 2) stderr = stderr.subarray(-STDERR_TAIL_BYTES);
  });
  const stderrTail = (): string =>
    options.scrub(stderr.subarray(-STDERR_TAIL_BYTES).toString("utf8").trimEnd());
  let unbind: ReleaseBinding = () => undefined;
  const connecting = client.connect(transport, { timeout: options.startTimeoutMs });
  // The transport spawned synchronously inside connect: bind the process (bubblewrap, which
  // `exec` made the shell) to climpt's life now, so a kill -9 from here on still ends it (its
  // --die-with-parent does too, by the kernel).
  if (transport.pid !== null) unbind = bindToProcessLife({ kind: "process", pid: transport.pid });
  const closeAll = async (): Promise<void> => {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    unbind();
    await release();
  };
  try {
    await connecting;
  } catch (error) {
    await closeAll();
    throw startFailure(options, (error as Error).message, stderrTail());
  }
  return {
    name: options.name,
    describe: describeServer(config),
    client,
    closed: isClosed,
    stderrTail,
    close: closeAll,
  };
}

async function connectHttp(
  sdk: McpSdk,
  client: Client,
  options: McpConnectOptions,
  config: Extract<McpServerConfig, { transport: "http" }>,
  isClosed: () => boolean,
): Promise<McpConnection> {
  const url = new URL(expandVariables(config.url, options.hostEnv));
  const allowed = (target: URL): boolean => {
    const { host, port } = urlHostPort(target);
    return hostAllowed(options.networkAllow, host, port);
  };
  if (!allowed(url)) {
    const { host, port } = urlHostPort(url);
    throw new ClimptError({
      code: TOOL_CODES.mcpHostRefused,
      message: `MCP server "${options.name}" is at ${host}:${port}, which the agent does not declare in runner.boundaries.sandbox.network.allow.`,
      hint: `Add "${host}" to runner.boundaries.sandbox.network.allow.`,
    });
  }
  const transport = new sdk.StreamableHTTPClientTransport(url, {
    requestInit: { headers: expandRecord(config.headers, options.hostEnv) },
    // Every request is checked against the declared hosts, and a redirect is never followed:
    // it could lead anywhere, headers (a token) included.
    fetch: (input, init) => {
      const target = new URL(input instanceof Request ? input.url : String(input));
      if (!allowed(target)) {
        return Promise.reject(new Error(`${target.host} is not a declared host`));
      }
      return fetch(input, { ...init, redirect: "error" });
    },
  });
  try {
    await client.connect(transport, { timeout: options.startTimeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw startFailure(options, (error as Error).message, "");
  }
  return {
    name: options.name,
    describe: describeServer(config),
    client,
    closed: isClosed,
    stderrTail: () => "",
    close: () => client.close().catch(() => undefined),
  };
}
