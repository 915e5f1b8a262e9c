import type { Problem } from "@climpt/model";
import { parseDuration } from "../args/flag-values.ts";
import type { ParsedFlags } from "../args/parse-flags.ts";
import { CLI_CODES } from "../cli-codes.ts";
import { numberValue } from "./command-line.ts";

/**
 * The environment variables that set the bounds of each model call's waits
 * (docs/design.md#waits) for `climpt run`, `resume` and `orchestrate`: a duration
 * (`30s`, `2m`). A flag wins over them; they win over agent.json's `limits`.
 */
export const MODEL_WAIT_ENV = {
  connectTimeoutMs: "CLIMPT_CONNECT_TIMEOUT",
  streamIdleTimeoutMs: "CLIMPT_STREAM_IDLE_TIMEOUT",
} as const;

export interface ModelWaits {
  readonly connectTimeoutMs?: number;
  readonly streamIdleTimeoutMs?: number;
}

/** The bounds the environment sets, and a problem for a value that is not a duration. */
export function modelWaitsFromEnv(env: Readonly<Record<string, string | undefined>>): {
  readonly waits: ModelWaits;
  readonly problems: Problem[];
} {
  const problems: Problem[] = [];
  const waits: { connectTimeoutMs?: number; streamIdleTimeoutMs?: number } = {};
  for (const key of ["connectTimeoutMs", "streamIdleTimeoutMs"] as const) {
    const name = MODEL_WAIT_ENV[key];
    const text = env[name];
    if (text === undefined || text.trim() === "") continue;
    const ms = parseDuration(text.trim());
    if (ms === undefined || ms < 1) {
      problems.push({
        code: CLI_CODES.badValue,
        severity: "error",
        message: `${name}=${JSON.stringify(text)} is not a duration.`,
        hint: `Write ${name}=30s, ${name}=2m or ${name}=1500ms, or unset it (the default is agent.json's limit, else the client's).`,
      });
      continue;
    }
    waits[key] = ms;
  }
  return { waits, problems };
}

/** `--connect-timeout` / `--stream-idle-timeout`, each over its environment variable. */
export function modelWaitsFromFlags(
  values: ParsedFlags["values"],
  env: Readonly<Record<string, string | undefined>>,
): { readonly waits: ModelWaits; readonly problems: Problem[] } {
  const fromEnv = modelWaitsFromEnv(env);
  const connectTimeoutMs = numberValue(values, "connectTimeout") ?? fromEnv.waits.connectTimeoutMs;
  const streamIdleTimeoutMs =
    numberValue(values, "streamIdleTimeout") ?? fromEnv.waits.streamIdleTimeoutMs;
  return {
    waits: {
      ...(connectTimeoutMs === undefined ? {} : { connectTimeoutMs }),
      ...(streamIdleTimeoutMs === undefined ? {} : { streamIdleTimeoutMs }),
    },
    problems: fromEnv.problems,
  };
}
