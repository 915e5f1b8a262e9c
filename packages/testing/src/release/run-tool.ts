/**
 * Runs the package managers (npm, pnpm) and the built CLIs the release test drives, with an
 * environment that is the test's choice and not the surrounding `pnpm test`'s.
 */
import { execFile } from "node:child_process";

/** The longest one npm or pnpm command may take before it counts as hung. */
export const TOOL_LIMIT_MS = 600_000;

/**
 * Where the root's vitest.shared.ts (`stashExtraCaCerts`, which names the same variable) keeps the
 * machine's `NODE_EXTRA_CA_CERTS` while the tests' processes run without it (Node 20 parses that
 * file at every start-up).
 */
export const STASHED_EXTRA_CA_CERTS = "CLIMPT_TEST_NODE_EXTRA_CA_CERTS";

/**
 * The environment of this process without the `npm_*` / `pnpm_*` variables a surrounding pnpm
 * run sets (they would make a child npm believe it runs a script of this workspace, with its
 * registry and its prefix), plus `extra`. The machine's `NODE_EXTRA_CA_CERTS` comes back (the
 * tests' config stashes it): npm and pnpm reach the public registry, maybe through a proxy that
 * inspects TLS.
 */
export function toolEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (lower.startsWith("npm_") || lower.startsWith("pnpm_")) continue;
    env[key] = value;
  }
  const stashedCerts = process.env[STASHED_EXTRA_CA_CERTS];
  if (env.NODE_EXTRA_CA_CERTS === undefined && stashedCerts !== undefined) {
    env.NODE_EXTRA_CA_CERTS = stashedCerts;
  }
  return {
    ...env,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    ...extra,
  };
}

/** A command that exited non-zero: what it was, its exit code and both outputs. */
export class ToolFailure extends Error {
  constructor(
    readonly command: string,
    readonly code: number | string | null,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`${command} failed (${code}):\n${stderr.slice(-4000)}\n${stdout.slice(-2000)}`);
  }
}

/** Runs `command args` in `cwd`; resolves to its stdout, rejects with a ToolFailure. */
export function runTool(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; limitMs?: number },
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: options.env,
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.limitMs ?? TOOL_LIMIT_MS,
        killSignal: "SIGKILL",
      },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve(stdout);
          return;
        }
        const code = (error as { code?: number | string }).code ?? error.signal ?? null;
        reject(new ToolFailure(`${command} ${args.join(" ")}`, code, stdout, stderr));
      },
    );
  });
}

/** How a command ended, for a test that asserts on a failing command. */
export interface ToolOutcome {
  readonly code: number | string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command args` and resolves to how it ended, non-zero exits included. */
export async function tryTool(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; limitMs?: number },
): Promise<ToolOutcome> {
  try {
    return await new Promise<ToolOutcome>((resolve, reject) => {
      execFile(
        command,
        args,
        {
          cwd: options.cwd,
          env: options.env,
          maxBuffer: 64 * 1024 * 1024,
          timeout: options.limitMs ?? TOOL_LIMIT_MS,
          killSignal: "SIGKILL",
        },
        (error, stdout, stderr) => {
          if (error === null) resolve({ code: 0, stdout, stderr });
          else if (typeof (error as { code?: unknown }).code === "string") reject(error);
          else
            resolve({
              code: (error as { code?: number }).code ?? error.signal ?? null,
              stdout,
              stderr,
            });
        },
      );
    });
  } catch (error) {
    throw new Error(`${command} did not start: ${(error as Error).message}`);
  }
}
