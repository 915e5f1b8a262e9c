/**
 * Where a validator's command runs: the seam between this package, which owns running a check
 * (output capture, timeouts, the process-group kill, `successWhen`, extractors, scrubbing), and
 * whoever decides what the command may reach. The default runs `sh -c <command>` on the host with
 * the caller's environment (model credentials withheld); the runner passes the OS sandbox of
 * `@climpt/tools` (`createCommandSandbox`), so this package does not depend on it.
 */

/** What a launcher is told about the command it prepares. */
export interface LaunchRequest {
  /** The working directory the command runs in. */
  readonly cwd: string;
  /**
   * The variables the validator declares by name (`"env": ["NPM_TOKEN"]`): a launcher that keeps
   * secrets out passes these in. The host launcher passes the whole environment anyway.
   */
  readonly declaredEnv: readonly string[];
  readonly signal?: AbortSignal;
}

/** A command ready to run: `sh -c <command>` in its own process group, with exactly `env`. */
export interface CommandLaunch {
  /** The shell command line `sh -c` runs (the validator's, or a wrapper around it). */
  readonly command: string;
  /** The whole environment of the command; nothing else is inherited. */
  readonly env: Readonly<Record<string, string>>;
  /** Called once, after the command and its process group are gone (or it never started). */
  release(): Promise<void>;
}

/**
 * Prepares one rendered command. May throw when the command cannot be prepared (the sandbox
 * cannot start): the validator then fails as not runnable, `SR-VALID-111`, with the message.
 */
export type CommandLauncher = (command: string, request: LaunchRequest) => Promise<CommandLaunch>;

// Credentials of the model client have no business in a validator's environment, and a command
// that prints its environment would put them into a retry prompt. A caller can still pass them.
const WITHHELD_ENV = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"];

/** The host environment of a validator: the process's, minus model credentials, plus `extra`. */
export function hostEnvironment(
  extra: Readonly<Record<string, string | undefined>> | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !WITHHELD_ENV.includes(key)) env[key] = value;
  }
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/**
 * The default launcher: the command as it is, on the host, with the process's environment
 * (minus model credentials) plus `extra`. Everything the command starts can read and write what
 * this process can, so use it only for commands nobody untrusted wrote.
 */
export function hostLauncher(
  extra?: Readonly<Record<string, string | undefined>>,
): CommandLauncher {
  return async (command) => ({
    command,
    env: hostEnvironment(extra),
    release: async () => undefined,
  });
}
