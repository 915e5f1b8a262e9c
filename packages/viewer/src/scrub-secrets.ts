/**
 * Secret scrubbing for everything a page shows. The runner already keeps credentials out of the
 * journal (the API key is never written, tool and validator subprocesses do not get it); this is
 * the second line: a page is made to be attached to an issue or a CI artifact, so anything that
 * looks like a credential is replaced before it is embedded or served, whatever wrote it.
 */

/** Names of environment variables whose values are credentials. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE/i;

/** Values shorter than this are not scrubbed by value: `1`, `true` would blank half the page. */
const MIN_SECRET_LENGTH = 8;

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
 * they appear) and text shaped like a credential (API keys, GitHub and Slack tokens, AWS key ids,
 * bearer tokens, private keys, `SECRET_NAME=value`).
 */
export function createScrubber(env: Readonly<Record<string, string | undefined>> = {}): Scrub {
  const values: { readonly value: string; readonly name: string }[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_SECRET_LENGTH) continue;
    if (SECRET_NAME.test(name)) values.push({ value, name });
  }
  // Longest first, so a value that contains another is replaced whole.
  values.sort((a, b) => b.value.length - a.value.length);
  return (text: string): string => {
    let out = text;
    for (const { value, name } of values) {
      if (out.includes(value)) out = out.split(value).join(`[redacted: ${name}]`);
    }
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
