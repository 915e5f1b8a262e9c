/**
 * Which environment variables hold secrets. Pure data and predicates: no imports, so the module
 * can move to a dependency-free package unchanged.
 */

/**
 * Variables that are secrets whatever their name says: model credentials, forge tokens, cloud
 * keys, and connection strings that usually embed a password.
 */
export const KNOWN_SECRET_ENV_NAMES: readonly string[] = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "GH_TOKEN",
  "GITHUB_TOKEN",
  "GH_ENTERPRISE_TOKEN",
  "GITHUB_ENTERPRISE_TOKEN",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AZURE_CLIENT_SECRET",
  "GOOGLE_API_KEY",
  "OPENAI_API_KEY",
  "NPM_TOKEN",
  "NODE_AUTH_TOKEN",
  "DATABASE_URL",
  "REDIS_URL",
];

/** Name endings that mark a variable as a secret (compared case-insensitively). */
export const SECRET_NAME_SUFFIXES: readonly string[] = ["_TOKEN", "_KEY", "_SECRET", "_PASSWORD"];

/** Names that are secrets on their own. */
const BARE_SECRET_NAMES = new Set(["TOKEN", "KEY", "SECRET", "PASSWORD", "APIKEY", "API_KEY"]);

const KNOWN = new Set(KNOWN_SECRET_ENV_NAMES);

/**
 * Whether a variable's value is to be treated as a secret: a known name, a name ending in
 * `_TOKEN`, `_KEY`, `_SECRET` or `_PASSWORD`, or an npm-style `…_authToken` setting.
 */
export function isSecretEnvName(name: string): boolean {
  if (KNOWN.has(name)) return true;
  const upper = name.toUpperCase();
  if (BARE_SECRET_NAMES.has(upper)) return true;
  if (upper.endsWith("AUTHTOKEN")) return true;
  return SECRET_NAME_SUFFIXES.some((suffix) => upper.endsWith(suffix));
}

/** Whether `name` is one of the known names (as opposed to matching by suffix). */
export function isKnownSecretEnvName(name: string): boolean {
  return KNOWN.has(name);
}
