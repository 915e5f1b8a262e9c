/**
 * `env` of a validator (`validators.<id>.env`), of a program step (`steps.<id>.runner.env`) and
 * of agent.json's command boundary hook (`boundaryHook.env`): the names of the environment
 * variables the command needs although they are secret. Commands the
 * runner starts itself run in the OS sandbox, which passes no secret unless it is declared here
 * (docs/design.md#tools-and-their-boundary). Read here rather than by the field reader, whose
 * messages quote the value: a token pasted where its name belongs is refused (SR-VALID-011 in
 * steps_registry.json, AC-HOOK-005 in agent.json) without being echoed back, as
 * `runner.boundaries.secrets` is (normalize-secrets.ts).
 */

import { jsonPath } from "@climpt/model";
import { type Findings, report } from "./field-reader.ts";

/** A POSIX environment variable name: a letter or `_`, then letters, digits, `_`. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_NAME_CHARS = 256;

/** The model's credentials: never passed to a command the model can edit, declared or not. */
const MODEL_CREDENTIALS = new Set([
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
]);

/** Where a declaration is written: its problem code and the file a secret must never be in. */
export interface DeclaredEnvPlace {
  readonly code: string;
  readonly file: string;
}

/** A validator's or a program step's `env`, in steps_registry.json. */
export const REGISTRY_ENV: DeclaredEnvPlace = { code: "SR-VALID-011", file: "steps_registry.json" };

const hintFor = (place: DeclaredEnvPlace): string =>
  `Write the names of the variables the command needs, e.g. "env": ["NPM_TOKEN"], and set their values in the environment; never write a secret value into ${place.file}. If it was a real secret, rotate it.`;

/** What a value is, without its content. */
function shapeOf(value: unknown): string {
  if (typeof value === "string") return `a string of ${value.length} characters`;
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/**
 * The declared names (each once, in order), or nothing when `raw` is absent. A bad entry is
 * reported (`place.code`, file and JSON path) and left out; so is a model credential, which is
 * never passed.
 */
export function readDeclaredEnv(
  raw: unknown,
  at: string,
  owner: string,
  findings: Findings,
  place: DeclaredEnvPlace = REGISTRY_ENV,
): { env?: readonly string[] } {
  if (raw === undefined) return {};
  const hint = hintFor(place);
  if (!Array.isArray(raw)) {
    report(
      findings,
      place.code,
      at,
      `${owner}'s env must be an array of environment variable names, but is ${shapeOf(raw)}; the value is not repeated here in case it is a secret.`,
      hint,
    );
    return {};
  }
  const names: string[] = [];
  raw.forEach((entry: unknown, index) => {
    const here = jsonPath(at, index);
    if (typeof entry !== "string" || !ENV_NAME.test(entry) || entry.length > MAX_NAME_CHARS) {
      report(
        findings,
        place.code,
        here,
        `${owner}'s env entry ${index} (${shapeOf(entry)}) is not an environment variable name; it is not repeated here in case it is a secret value.`,
        hint,
      );
      return;
    }
    if (MODEL_CREDENTIALS.has(entry)) {
      report(
        findings,
        place.code,
        here,
        `${owner} declares ${entry}, the model's own credential, which is never passed to a command: the command runs files the model may have written.`,
        `Remove "${entry}" from env; give the command a credential of its own under another name if it needs one.`,
      );
      return;
    }
    if (!names.includes(entry)) names.push(entry);
  });
  return names.length === 0 ? {} : { env: names };
}
