/**
 * The agent's own MCP servers (agent.json `runner.boundaries.mcpServers`) for a Claude Code
 * session, so an agent does not change when its executor does: the same servers, the same
 * allowedTools names (tool-access.ts applies them per step, as the default executor's policy
 * does), and the same confinement — Claude Code spawns each stdio server through the command
 * line @climpt/tools prepares (`prepareStdioLaunch`), which starts it inside climpt's OS sandbox
 * with exactly the sandbox's variables and the entry's env, whatever environment Claude Code
 * passes. Lifetime: the session's (one step); Claude Code starts and stops its servers itself.
 */
import {
  type AgentDefinition,
  hostAllowed,
  type McpServerConfig,
  type Step,
  urlHostPort,
} from "@climpt/model";
import {
  createCommandSandbox,
  expandMcpVariables,
  mcpServersNamed,
  type ProtectedPath,
  prepareStdioLaunch,
} from "@climpt/tools";

type SdkServer =
  | { type: "stdio"; command: string; args: string[]; env: Record<string, string> }
  | { type: "http"; url: string; headers: Record<string, string> };

export interface AgentMcpServers {
  readonly servers: Record<string, SdkServer>;
  /** Ends what was prepared for the session's servers (their sandboxes' folders and brokers). */
  release(): Promise<void>;
}

function hostEnvOf(env: Readonly<Record<string, string | undefined>> | undefined) {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...env })) {
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export async function agentMcpServers(input: {
  readonly agent: AgentDefinition;
  readonly step: Step;
  readonly cwd: string;
  readonly protectedPaths?: readonly ProtectedPath[];
  readonly env?: Readonly<Record<string, string | undefined>>;
}): Promise<AgentMcpServers> {
  const declared: Readonly<Record<string, McpServerConfig>> = input.agent.mcpServers ?? {};
  const names = mcpServersNamed(input.agent, input.step);
  const releases: Array<() => Promise<void>> = [];
  const servers: Record<string, SdkServer> = {};
  if (names.length === 0) return { servers, release: async () => undefined };
  const hostEnv = hostEnvOf(input.env);
  const sandboxSetting = input.agent.sandbox;
  const networkAllow = sandboxSetting?.networkAllow ?? [];
  const sandbox =
    sandboxSetting?.mode === "off"
      ? ("off" as const)
      : createCommandSandbox({
          cwd: input.cwd,
          stepKind: "verification",
          ...(sandboxSetting === undefined
            ? {}
            : {
                sandbox: {
                  mode: sandboxSetting.mode,
                  network: { allow: sandboxSetting.networkAllow },
                  readable: sandboxSetting.readable,
                },
              }),
          ...(input.env === undefined ? {} : { env: input.env }),
          ...(input.agent.secretEnvNames === undefined
            ? {}
            : { secrets: { env: input.agent.secretEnvNames } }),
          ...(input.protectedPaths === undefined ? {} : { protectedPaths: input.protectedPaths }),
        });
  try {
    for (const name of names) {
      const config = declared[name];
      if (config === undefined) continue;
      if (config.transport === "http") {
        const url = new URL(expandMcpVariables(config.url, hostEnv));
        const { host, port } = urlHostPort(url);
        // The loader refuses an undeclared host (AC-MCP-002); a definition built by hand too.
        if (!hostAllowed(networkAllow, host, port)) continue;
        servers[name] = {
          type: "http",
          url: url.href,
          headers: Object.fromEntries(
            Object.entries(config.headers).map(([k, v]) => [k, expandMcpVariables(v, hostEnv)]),
          ),
        };
        continue;
      }
      const launch = await prepareStdioLaunch(config, { cwd: input.cwd, sandbox, hostEnv });
      releases.push(() => launch.release());
      servers[name] = {
        type: "stdio",
        command: launch.command,
        args: [...launch.args],
        env: { ...launch.env },
      };
    }
  } catch (error) {
    await Promise.all(releases.map((release) => release()));
    throw error;
  }
  return {
    servers,
    release: async () => {
      await Promise.all(releases.map((release) => release().catch(() => undefined)));
    },
  };
}
