/**
 * Keeps the client's own credentials out of what it reports. The adapter knows the API key it
 * was given (or the SDK reads from ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN); an API error body
 * may echo it (a proxy, a misconfigured gateway), and the error text goes into results and
 * journals. A caller with a fuller list of secrets passes its own scrubber.
 */

/** Anything with `scrub(text)`: `SecretScrubber` of @climpt/model fits. */
export interface TextScrubber {
  scrub(text: string): string;
}

/** Shorter values are not replaced (they would mangle text and are no real credential). */
const MIN_LENGTH = 8;

/** A scrubber of the Anthropic credentials this client uses. */
export function credentialScrubber(
  apiKey: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): TextScrubber {
  const secrets = new Map<string, string>();
  for (const [label, value] of [
    ["ANTHROPIC_API_KEY", apiKey ?? env.ANTHROPIC_API_KEY],
    ["ANTHROPIC_AUTH_TOKEN", env.ANTHROPIC_AUTH_TOKEN],
  ] as const) {
    if (value === undefined || value.length < MIN_LENGTH) continue;
    for (const spelling of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) {
      secrets.set(spelling, `[REDACTED ${label}]`);
    }
  }
  const ordered = [...secrets.entries()].sort((a, b) => b[0].length - a[0].length);
  return {
    scrub(text) {
      let out = text;
      for (const [value, replacement] of ordered) {
        if (out.includes(value)) out = out.split(value).join(replacement);
      }
      return out;
    },
  };
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
