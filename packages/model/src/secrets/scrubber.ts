import type { SecretValue } from "./collect-secrets.ts";
import { scrubCredentialShapes } from "./credential-shapes.ts";

/** Replaces secret values in text and in JSON-like values. */
export interface SecretScrubber {
  /** How many distinct secret values it replaces (their spellings not counted). */
  readonly size: number;
  /** The labels of the secrets it knows (variable names), never the values. */
  readonly labels: readonly string[];
  /** `text` with every occurrence of a secret replaced by `[REDACTED <label>]`. */
  scrub(text: string): string;
  /** A copy of `value` with every string (keys included) scrubbed; other values unchanged. */
  scrubJson<T>(value: T): T;
  /** Whether `text` contains any secret. */
  contains(text: string): boolean;
}

/** What replaces a secret value. */
export function redactionOf(label: string): string {
  return `[REDACTED ${label}]`;
}

interface Spelling {
  readonly text: string;
  readonly replacement: string;
}

/**
 * The forms a value takes in output: as is, escaped inside a JSON string, and percent-encoded in
 * a URL. Tokens are usually plain ASCII and all three are the same; AWS secrets (with `/` and
 * `+`) and passwords are not.
 */
function spellingsOf(secret: SecretValue): Spelling[] {
  const replacement = redactionOf(secret.label);
  const forms = new Set([
    secret.value,
    JSON.stringify(secret.value).slice(1, -1),
    encodeURIComponent(secret.value),
  ]);
  return [...forms].map((text) => ({ text, replacement }));
}

export interface ScrubberOptions {
  /**
   * Also replace text shaped like a credential whose value is not known (`sk-ant-…`, `ghp_…`,
   * `Bearer …`, private key blocks, `SOME_TOKEN=…`; see `CREDENTIAL_SHAPES`), after the known
   * values. For output that may be published (viewer pages); off by default because a run's
   * scrubber also cleans what the model reads. Default: false.
   */
  readonly credentialShapes?: boolean;
}

/**
 * Builds a scrubber for the given secrets. Scrubbing is plain substring replacement, longest
 * spelling first: linear in the text for each spelling, no regular expressions built from secret
 * values. What it cannot recognise: a secret transformed before it was printed (base64, reversed,
 * split across lines, hashed); `credentialShapes` catches well-known token formats besides.
 */
export function createScrubber(
  secrets: readonly SecretValue[],
  options: ScrubberOptions = {},
): SecretScrubber {
  const spellings = secrets
    .flatMap(spellingsOf)
    .sort((a, b) => b.text.length - a.text.length || (a.text < b.text ? -1 : 1));
  const unique: Spelling[] = [];
  const seen = new Set<string>();
  for (const spelling of spellings) {
    if (seen.has(spelling.text)) continue;
    seen.add(spelling.text);
    unique.push(spelling);
  }

  const shapes = options.credentialShapes === true;
  const scrubValues = (text: string): string => {
    let out = text;
    for (const { text: needle, replacement } of unique) {
      if (out.includes(needle)) out = out.split(needle).join(replacement);
    }
    return out;
  };
  const scrub = shapes ? (text: string) => scrubCredentialShapes(scrubValues(text)) : scrubValues;
  const scrubJson = <T>(value: T): T => scrubValue(value, scrub) as T;
  const nothing = unique.length === 0 && !shapes;

  return {
    size: new Set(secrets.map((secret) => secret.value)).size,
    labels: [...new Set(secrets.map((secret) => secret.label))],
    scrub: nothing ? (text) => text : scrub,
    scrubJson: nothing ? (value) => value : scrubJson,
    contains: (text) =>
      unique.some(({ text: needle }) => text.includes(needle)) ||
      (shapes && scrubCredentialShapes(text) !== text),
  };
}

function scrubValue(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === "string") return scrub(value);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, scrub));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[scrub(key)] = scrubValue(item, scrub);
    return out;
  }
  return value;
}

/** A scrubber that changes nothing. */
export const NO_SECRETS: SecretScrubber = createScrubber([]);
