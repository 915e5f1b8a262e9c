/**
 * Secret scrubbing for everything a page shows. The runner already keeps credentials out of the
 * journal (the API key is never written, tool and validator subprocesses do not get it); this is
 * the second line: a page is made to be attached to an issue or a CI artifact, so anything that
 * looks like a credential is replaced before it is embedded or served, whatever wrote it.
 */

import { collectSecrets, createScrubber as createValueScrubber } from "@climpt/model";

/**
 * Names of environment variables whose values are credentials, beyond the shared rule
 * (`isSecretEnvName`: known names and `_TOKEN`/`_KEY`/`_SECRET`/`_PASSWORD`): a page may be
 * published, so the viewer also hides `*CREDENTIAL*`, `*AUTH*`, `*COOKIE*`, `*SESSION*`, … values.
 */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE/i;

const PATTERNS: readonly { readonly pattern: RegExp; readonly replace: string }[] = [
  { pattern: /sk-ant-[A-Za-z0-9_-]{8,}/g, replace: "[redacted]" },
  { pattern: /\bsk-[A-Za-z0-9_-]{20,}/g, replace: "[redacted]" },
  {
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
    replace: "[redacted]",
  },
  { pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, replace: "[redacted]" },
  { pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, replace: "[redacted]" },
  { pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/g, replace: "$1 [redacted]" },
  {
    pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
    replace: "[redacted private key]",
  },
  // `NAME=value` of a secret-named variable, as `env`, `export` or a .env file prints it.
  {
    pattern:
      /\b([A-Za-z0-9_]*(?:API_KEY|APIKEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)[A-Za-z0-9_]*)=(?:"[^"\n]*"|'[^'\n]*'|[^\s"']+)/g,
    replace: "$1=[redacted]",
  },
];

export type Scrub = (text: string) => string;

/**
 * A scrubber that replaces the values of the secret-named variables of `env` (exactly, wherever
 * they appear, with the scrubber the tools and validators use: `[REDACTED NAME]`) and text shaped
 * like a credential (API keys, GitHub and Slack tokens, AWS key ids, bearer tokens, private keys,
 * `SECRET_NAME=value`).
 */
export function createScrubber(env: Readonly<Record<string, string | undefined>> = {}): Scrub {
  const byValue = createValueScrubber(
    collectSecrets({
      env,
      secretEnvNames: Object.keys(env).filter((name) => SECRET_NAME.test(name)),
    }),
  );
  return (text: string): string => {
    let out = byValue.scrub(text);
    for (const { pattern, replace } of PATTERNS) out = out.replace(pattern, replace);
    return out;
  };
}

/** A copy of a parsed JSON value with every string scrubbed (keys included). */
export function scrubDeep(value: unknown, scrub: Scrub): unknown {
  if (typeof value === "string") return scrub(value);
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, scrub));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[scrub(key)] = scrubDeep(item, scrub);
    return out;
  }
  return value;
}
