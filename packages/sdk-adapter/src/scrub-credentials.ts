/**
 * Keeps the client's own credentials out of what it reports. The adapter knows the API key it
 * was given (or the SDK reads from ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN); an API error body
 * may echo it (a proxy, a misconfigured gateway), and the error text goes into results and
 * journals. A caller with a fuller list of secrets passes its own scrubber.
 */

import { collectSecrets, createScrubber, type SecretScrubber } from "@climpt/model";

/** Anything with `scrub(text)`: `SecretScrubber` of @climpt/model fits. */
export type TextScrubber = Pick<SecretScrubber, "scrub">;

/**
 * A scrubber of the Anthropic credentials this client uses: @climpt/model's scrubber over the
 * key and `ANTHROPIC_AUTH_TOKEN`, so the rules (minimum length, common values skipped, plain,
 * JSON-escaped and percent-encoded spellings) are the ones every other sink applies.
 */
export function credentialScrubber(
  apiKey: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): SecretScrubber {
  return createScrubber(
    collectSecrets({
      env: {
        ANTHROPIC_API_KEY: apiKey ?? env.ANTHROPIC_API_KEY,
        ANTHROPIC_AUTH_TOKEN: env.ANTHROPIC_AUTH_TOKEN,
      },
    }),
  );
}

/** Scrubs an error's message and hint in place, and its cause's message (journals keep both). */
export function scrubError<E extends Error>(error: E, scrubber: TextScrubber): E {
  const target = error as E & { hint?: string };
  target.message = scrubber.scrub(target.message);
  if (typeof target.hint === "string") {
    Object.defineProperty(target, "hint", { value: scrubber.scrub(target.hint) });
  }
  if (target.cause instanceof Error) target.cause.message = scrubber.scrub(target.cause.message);
  return error;
}

type LogMethod = (message: string, ...rest: unknown[]) => void;

/**
 * The SDK's logger, writing to stderr: the SDK's default (the console) writes debug and info
 * lines to stdout, where `--json` prints its one result object (`ANTHROPIC_LOG=debug` would put a
 * thousand lines before it). Messages are scrubbed; the SDK already redacts auth headers.
 */
export function stderrLogger(scrubber: TextScrubber): {
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
} {
  const write =
    (level: string): LogMethod =>
    (message, ...rest) => {
      const parts = rest.map((part) => {
        if (typeof part === "string") return part;
        try {
          return JSON.stringify(part);
        } catch {
          return String(part);
        }
      });
      process.stderr.write(
        `${scrubber.scrub([`[anthropic-sdk:${level}]`, message, ...parts].join(" "))}\n`,
      );
    };
  return { error: write("error"), warn: write("warn"), info: write("info"), debug: write("debug") };
}
