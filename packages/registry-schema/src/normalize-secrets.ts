/**
 * agent.json `runner.boundaries.secrets` (flat shape: `behavior.secrets`) → the definition's
 * `secretEnvNames`: an array of environment variable names. Read here rather than by the field
 * reader, whose messages quote the value: a secret value pasted where its name belongs is refused
 * at `climpt validate` (AC-SECRETS-001) without being echoed back — messages give only its type
 * and length (docs/design.md#tools-and-their-boundary).
 */

import { jsonPath } from "@climpt/model";
import { type Findings, report } from "./field-reader.ts";

/** The secrets setting as written, and the JSON path it was written at. */
export interface WrittenSecrets {
  readonly value: unknown;
  readonly path: string;
}

/** The secrets section of a shape's sections, when the file has one. */
export function writtenSecrets(value: unknown, path: string): { secrets?: WrittenSecrets } {
  return value === undefined ? {} : { secrets: { value, path } };
}

/** A POSIX environment variable name: a letter or `_`, then letters, digits, `_`. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_NAME_CHARS = 256;
const HINT =
  'Name the variable that holds the secret, e.g. ["DATABASE_URL"], and set its value in the environment; never write a secret value into agent.json. If it was a real secret, rotate it.';

/** What a value is, without its content. */
function shapeOf(value: unknown): string {
  if (typeof value === "string") return `a string of ${value.length} characters`;
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/**
 * The declared names, as the `secretEnvNames` entry of the definition (nothing when the file
 * declares none). A bad entry is reported (AC-SECRETS-001) and left out.
 */
export function normalizeSecrets(
  written: WrittenSecrets | undefined,
  findings: Findings,
): { secretEnvNames?: readonly string[] } {
  if (written === undefined) return {};
  if (!Array.isArray(written.value)) {
    report(
      findings,
      "AC-SECRETS-001",
      written.path,
      `${written.path} must be an array of environment variable names, but is ${shapeOf(written.value)}; the value is not repeated here in case it is a secret.`,
      HINT,
    );
    return {};
  }
  const names: string[] = [];
  written.value.forEach((entry: unknown, index) => {
    if (typeof entry === "string" && ENV_NAME.test(entry) && entry.length <= MAX_NAME_CHARS) {
      if (!names.includes(entry)) names.push(entry);
      return;
    }
    report(
      findings,
      "AC-SECRETS-001",
      jsonPath(written.path, index),
      `Secret entry ${index} (${shapeOf(entry)}) is not an environment variable name; it is not repeated here in case it is a secret value.`,
      HINT,
    );
  });
  return names.length === 0 ? {} : { secretEnvNames: names };
}
