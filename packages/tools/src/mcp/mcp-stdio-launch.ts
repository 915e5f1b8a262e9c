/**
 * How a stdio MCP server is started: `/bin/sh -c` with a command line that runs the server inside
 * the OS sandbox Bash gets (`createCommandSandbox`), in an environment of the sandbox's own
 * variables and exactly what the entry declares. Whoever spawns it — climpt's own MCP client, or
 * Claude Code for the claude-code executor — spawns this, so a server is confined the same way
 * under either executor.
 */
import type { McpServerConfig } from "@climpt/model";
import { type CommandSandbox, commandLine } from "../sandbox/command-sandbox.ts";
import { STAGED_COMMAND_VARIABLE } from "../sandbox/git-staging.ts";

/**
 * The variables a sandboxed stdio server gets besides its entry's `env`: the sandbox's own (a
 * private HOME and TMPDIR, PATH with the gh and git shims, the broker sockets), never the caller's.
 */
const SANDBOX_OWN_ENV = [
  "HOME",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "GH_CONFIG_DIR",
  "GIT_CONFIG_NOSYSTEM",
  "GIT_TERMINAL_PROMPT",
  "GH_PROMPT_DISABLED",
  "PATH",
  "TMPDIR",
  "TMP",
  "TEMP",
  "CLIMPT_GH_BROKER",
  "CLIMPT_GIT_BROKER",
  "CLIMPT_SANDBOX",
  STAGED_COMMAND_VARIABLE,
] as const;

/** `${VAR}` and `${VAR:-default}` from climpt's environment, as Claude Code's .mcp.json reads them. */
export function expandVariables(text: string, env: Readonly<Record<string, string>>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_all, name: string, fallback: string | undefined) => env[name] ?? fallback ?? "",
  );
}

export function expandRecord(
  record: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [key, expandVariables(value, env)]),
  );
}

/** A stdio server ready to spawn: `command` with `args`, exactly `env`, in `cwd`; then `release`. */
export interface StdioLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Stops the sandbox's brokers and removes its folders, once the server has ended. */
  release(): Promise<void>;
}

export interface StdioLaunchOptions {
  readonly cwd: string;
  /** The sandbox to start in; `"off"`: the agent turned the sandbox off. */
  readonly sandbox: CommandSandbox | "off";
  /** climpt's environment, where `${VAR}` in the entry is looked up. */
  readonly hostEnv: Readonly<Record<string, string>>;
}

export async function prepareStdioLaunch(
  config: Extract<McpServerConfig, { transport: "stdio" }>,
  options: StdioLaunchOptions,
): Promise<StdioLaunch> {
  const declared = expandRecord(config.env, options.hostEnv);
  const argv = [config.command, ...config.args].map((word) =>
    expandVariables(word, options.hostEnv),
  );
  if (options.sandbox === "off") {
    // Unsandboxed (an explicit, journaled choice of the agent): still only PATH and the entry's.
    return {
      ...exactly(commandLine(argv), {
        PATH: options.hostEnv.PATH ?? "/usr/local/bin:/usr/bin:/bin",
        ...declared,
      }),
      cwd: options.cwd,
      release: async () => undefined,
    };
  }
  const launch = await options.sandbox.launch(commandLine(argv));
  const own: Record<string, string> = {};
  for (const name of SANDBOX_OWN_ENV) {
    const value = launch.env[name];
    if (value !== undefined) own[name] = value;
  }
  return {
    // The sandbox's own variables win: a declared HOME or PATH would undo the private home and
    // the gh and git shims.
    ...exactly(launch.command, { ...declared, ...own }),
    cwd: launch.cwd,
    release: () => launch.release(),
  };
}

/**
 * `/bin/sh -c` running `command` with exactly `env`, whatever the spawner adds: the SDK's stdio
 * transport copies USER, LOGNAME, SHELL and TERM from its parent, and Claude Code passes its own
 * environment (the model's key among it) to the servers it starts. So the shell starts the
 * command through `env -i` naming each variable to keep, whose values it reads from its own
 * environment (never written into a command line).
 */
function exactly(
  command: string,
  env: Readonly<Record<string, string>>,
): { command: string; args: readonly string[]; env: Readonly<Record<string, string>> } {
  const keep = Object.keys(env).map((name) => `"${name}=$${name}"`);
  return {
    command: "/bin/sh",
    args: ["-c", `exec env -i ${keep.join(" ")} /bin/sh -c ${commandLine([command]).slice(5)}`],
    env,
  };
}
