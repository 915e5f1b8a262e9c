import type { SandboxSettings } from "@anthropic-ai/claude-agent-sdk";
import { collectSecrets, createScrubber, type SecretScrubber } from "@climpt/model";
import { WITHHELD_ENV_VARS } from "@climpt/tools";

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Set on every Claude Code process climpt starts: no telemetry, error reports, update checks or
 * other traffic that is not the model call itself (measured: without them Claude Code opens
 * connections to api.anthropic.com for metrics even when `ANTHROPIC_BASE_URL` points elsewhere,
 * asks the model for a session title, and probes `HEAD /api/hello`).
 */
export const QUIET_ENV: Env = Object.freeze({
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
  DISABLE_AUTOUPDATER: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
});

/**
 * Variables a Claude Code session that runs climpt would hand down; a nested session must not
 * think it is that session's child.
 */
const PARENT_SESSION_VARS = [
  "CLAUDECODE",
  "CLAUDE_CODE_ENTRYPOINT",
  "CLAUDE_CODE_SESSION_ID",
  "CLAUDE_CODE_CHILD_SESSION",
  "CLAUDE_CODE_SSE_PORT",
];

export interface SessionEnvOptions {
  /** The environment to start from. Default: this process's. */
  readonly base?: Env;
  /** Retries of a failed API call inside Claude Code (`CLAUDE_CODE_MAX_RETRIES`). */
  readonly maxRetries?: number;
  /** Per request, in ms (`API_TIMEOUT_MS`). */
  readonly timeoutMs?: number;
  /** Output tokens per model call (`CLAUDE_CODE_MAX_OUTPUT_TOKENS`). */
  readonly maxTokens?: number;
}

/**
 * The environment of the Claude Code process. It replaces the process environment entirely (the
 * SDK does not merge), so it starts from `base`; credentials stay in it because Claude Code needs
 * them to call the API. Commands the model runs do not see them: the sandbox settings deny them
 * (`sandboxSettings`).
 */
export function sessionEnv(options: SessionEnvOptions = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.base ?? process.env)) {
    if (value !== undefined) env[key] = value;
  }
  for (const key of PARENT_SESSION_VARS) delete env[key];
  Object.assign(env, QUIET_ENV, { CLAUDE_AGENT_SDK_CLIENT_APP: "climpt" });
  if (options.maxRetries !== undefined) env.CLAUDE_CODE_MAX_RETRIES = String(options.maxRetries);
  if (options.timeoutMs !== undefined) env.API_TIMEOUT_MS = String(options.timeoutMs);
  if (options.maxTokens !== undefined) {
    env.CLAUDE_CODE_MAX_OUTPUT_TOKENS = String(options.maxTokens);
  }
  return env;
}

/**
 * The scrubber of what Claude Code prints: @climpt/model's, over the withheld credentials and
 * every other secret-named variable of the session's environment (same rules and spellings as
 * every other sink).
 */
export function sessionScrubber(env: Env): SecretScrubber {
  return createScrubber(collectSecrets({ env, secretEnvNames: [...WITHHELD_ENV_VARS] }));
}

/** Claude Code's sandbox settings (the SDK's `sandbox` option), as climpt uses them. */
export interface SandboxOptions {
  /** Domains commands may reach. Default: none. */
  readonly allowedDomains?: readonly string[];
  /** Paths commands may not write although they lie in the working directory (git-protection.ts). */
  readonly denyWrite?: readonly string[];
}

/**
 * Claude Code's own OS sandbox for the commands the model runs: writes only in the working
 * directory (never `denyWrite`: the repository's git paths), network only to `allowedDomains`,
 * and the API credentials unset inside it. It must
 * start (a step fails with `AC-CC-002` when it cannot), nothing may run outside it, and a
 * sandboxed command still goes through climpt's permission check.
 */
export function sandboxSettings(options: SandboxOptions = {}): SandboxSettings {
  return {
    enabled: true,
    failIfUnavailable: true,
    allowUnsandboxedCommands: false,
    autoAllowBashIfSandboxed: false,
    network: { allowedDomains: [...(options.allowedDomains ?? [])] },
    ...(options.denyWrite === undefined || options.denyWrite.length === 0
      ? {}
      : { filesystem: { denyWrite: [...options.denyWrite] } }),
    credentials: {
      envVars: WITHHELD_ENV_VARS.map((name) => ({ name, mode: "deny" as const })),
    },
  };
}
