import { isKnownSecretEnvName, isSecretEnvName } from "./secret-names.ts";

/** One value to scrub and the label that replaces it. */
export interface SecretValue {
  /** What the value was (an environment variable name, or `declared`); shown in its place. */
  readonly label: string;
  readonly value: string;
}

export interface CollectSecretsOptions {
  /** The environment to read (default: none; pass `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** More variable names whose values are secret (an agent's declaration). */
  readonly secretEnvNames?: readonly string[];
  /** Literal values an agent declares secret. */
  readonly secretValues?: readonly string[];
  /**
   * Also treat as secret every variable whose name merely contains a credential word (`KEY`,
   * `TOKEN`, `SECRET`, `PASSWORD`, `PASSWD`, `CREDENTIAL`, `AUTH`, `COOKIE`, `SESSION`,
   * `PRIVATE`), not only the endings `isSecretEnvName` knows: for output that may be published,
   * where hiding a harmless value costs little. Default: false.
   */
  readonly broadNames?: boolean;
}

/** The `broadNames` rule: a credential word anywhere in the name. */
const BROAD_SECRET_NAME =
  /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE/i;

/**
 * Values shorter than this are never scrubbed: replacing every `1234` or `true` in tool output
 * would destroy it, and values that short are not credentials anyone should rely on.
 */
export const MIN_SECRET_LENGTH = 8;

/** Values too common to scrub without mangling ordinary text. Compared lowercased. */
const COMMON_VALUES = new Set([
  "undefined",
  "changeme",
  "password",
  "localhost",
  "development",
  "production",
  "staging",
  "disabled",
  "enabled",
  "default",
  "example",
  "placeholder",
  "anonymous",
  "127.0.0.1",
  "0.0.0.0",
]);

function scrubbable(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length < MIN_SECRET_LENGTH) return false;
  if (COMMON_VALUES.has(trimmed.toLowerCase())) return false;
  // A run of one character (`xxxxxxxx`, `00000000`) is a placeholder, not a credential.
  if (/^(.)\1*$/s.test(trimmed)) return false;
  return true;
}

/** A path-like value under a suffix-matched name (`SSH_KEY=/home/u/.ssh/id`) is not the secret. */
function looksLikePath(value: string): boolean {
  return /^(?:\/|~\/|\.\.?\/)[^\s]*$/.test(value) && !value.includes("://");
}

/** The password of a URL value (`postgres://user:pw@host/db`), if it has one. */
function urlPassword(value: string): string | undefined {
  if (!value.includes("://") || !value.includes("@")) return undefined;
  try {
    const password = new URL(value).password;
    return password === "" ? undefined : decodeURIComponent(password);
  } catch {
    return undefined;
  }
}

/**
 * Collects the secret values to scrub: every variable of `env` with a secret name (known names,
 * `_TOKEN`/`_KEY`/`_SECRET`/`_PASSWORD` endings, names the agent declares), passwords embedded
 * in URL-valued variables, and values the agent declares. Short and common values are skipped
 * (see `MIN_SECRET_LENGTH`). The result is deduplicated, longest value first, so a secret that
 * contains another is replaced whole.
 */
export function collectSecrets(options: CollectSecretsOptions = {}): SecretValue[] {
  const found = new Map<string, string>();
  const add = (label: string, value: string | undefined): void => {
    if (value === undefined || !scrubbable(value)) return;
    const trimmed = value.trim();
    if (!found.has(trimmed)) found.set(trimmed, label);
    if (trimmed !== value && !found.has(value)) found.set(value, label);
  };
  const declared = new Set(options.secretEnvNames ?? []);
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) continue;
    if (
      declared.has(name) ||
      isKnownSecretEnvName(name) ||
      (options.broadNames === true && BROAD_SECRET_NAME.test(name))
    ) {
      add(name, value);
    } else if (isSecretEnvName(name)) {
      if (!looksLikePath(value)) add(name, value);
    }
    add(name, urlPassword(value));
  }
  for (const value of options.secretValues ?? []) add("declared", value);
  return [...found.entries()]
    .map(([value, label]) => ({ label, value }))
    .sort((a, b) => b.value.length - a.value.length || (a.value < b.value ? -1 : 1));
}
