/**
 * The process libraries, loaded on first use. execa is about a hundred modules and the sandbox
 * runtime forty more (with zod and node-forge): importing this package must not load them, so a
 * run reaches its first model request without them and a step that never runs a command never
 * pays for them.
 */
import { resetStatBuffer } from "@climpt/host-git";

type ExecaModule = typeof import("execa");
type SandboxRuntimeModule = typeof import("@anthropic-ai/sandbox-runtime");

let execaModule: Promise<ExecaModule> | undefined;
let sandboxRuntimeModule: Promise<SandboxRuntimeModule> | undefined;

export function loadExeca(): Promise<ExecaModule> {
  if (execaModule === undefined) {
    // In the same tick as the import's resolution (@climpt/host-git's stat-buffer.ts says why).
    resetStatBuffer();
    execaModule = import("execa");
  }
  return execaModule;
}

export function loadSandboxRuntime(): Promise<SandboxRuntimeModule> {
  if (sandboxRuntimeModule === undefined) {
    resetStatBuffer();
    sandboxRuntimeModule = import("@anthropic-ai/sandbox-runtime");
  }
  return sandboxRuntimeModule;
}

/** The MCP client, loaded only by a run whose agent declares MCP servers. */
export interface McpSdk {
  readonly Client: typeof import("@modelcontextprotocol/sdk/client/index.js").Client;
  readonly StdioClientTransport: typeof import("@modelcontextprotocol/sdk/client/stdio.js").StdioClientTransport;
  readonly StreamableHTTPClientTransport: typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport;
}

let mcpSdk: Promise<McpSdk> | undefined;

export function loadMcpSdk(): Promise<McpSdk> {
  if (mcpSdk !== undefined) return mcpSdk;
  resetStatBuffer();
  mcpSdk = Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  ]).then(([client, stdio, http]) => ({
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
  }));
  return mcpSdk;
}
