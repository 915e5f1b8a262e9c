/**
 * What an agent declares about its boundary (agent.json `runner.boundaries`), normalized: the OS
 * sandbox its commands run in, the branches its `git push` may reach, and its MCP servers.
 */

/** How model-issued commands are confined (agent.json `runner.boundaries.sandbox`). */
export type SandboxMode = "required" | "off";

/**
 * The sandbox setting of an agent, normalized. `required` (the default): Bash runs only inside
 * the OS sandbox, and a machine where it cannot start refuses the run; `off`: an explicit,
 * logged choice to run commands unsandboxed (docs/design.md#tools-and-their-boundary).
 */
export interface AgentSandbox {
  readonly mode: SandboxMode;
  /** Hosts (`name[:port]`, `*.` wildcards) commands may reach. Empty: no network. */
  readonly networkAllow: readonly string[];
  /** Paths under the user's home directory commands may read (toolchains); `~/` is home. */
  readonly readable: readonly string[];
}

/**
 * Which branches `git push` inside the sandbox may push besides the run's own (agent.json
 * `runner.boundaries.push`), normalized. The host performs every push (docs/design.md#tools-and-their-boundary).
 */
export interface AgentPush {
  /** `false`: `runner.boundaries.push: "off"`, every push from the sandbox is refused. */
  readonly enabled: boolean;
  /** Branch names, or `<prefix>/*`, pushable besides the run's branch; never a protected one. */
  readonly branches: readonly string[];
}

/**
 * One MCP server an agent's steps may use as tools (agent.json `runner.boundaries.mcpServers`,
 * the shape of Claude Code's `.mcp.json`), normalized. A stdio server is a command started inside
 * the OS sandbox with only `env` as its own environment; an http server is reached from the host,
 * at a host the agent's sandbox network allows (docs/design.md#tools-and-their-boundary).
 */
export type McpServerConfig =
  | {
      readonly transport: "stdio";
      readonly command: string;
      readonly args: readonly string[];
      /** Exactly the variables the server gets besides the sandbox's own (HOME, PATH, TMPDIR). */
      readonly env: Readonly<Record<string, string>>;
    }
  | {
      readonly transport: "http";
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
    };
