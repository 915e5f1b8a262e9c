/**
 * agent.json's command boundary hook (`runner.boundaries.boundaryHook`, flat shape:
 * `behavior.boundaryHook`) → the definition's `boundaryHook`: a command string, or
 * `{ command, timeout?, env? }`. The hook runs a command that may run files the model rewrote
 * (`npm run deploy`, `./scripts/release.sh`), so it runs in the OS sandbox and gets only the secret
 * variables it declares in `env` (docs/design.md#the-boundary-hook). `env` is read by
 * `readDeclaredEnv`, never by the field reader, whose messages would quote a token pasted where
 * its name belongs (AC-HOOK-005).
 */

import { type CommandBoundaryHook, isPlainObject, jsonPath } from "@climpt/model";
import { boundaryHookObjectSchema, boundaryHookSchema } from "./agent-file-schema.ts";
import { type DeclaredEnvPlace, readDeclaredEnv } from "./declared-env.ts";
import { durationToMs } from "./duration.ts";
import { type Findings, readFields } from "./field-reader.ts";

/** The hook as written, and the JSON path of the object holding it. */
export interface WrittenBoundaryHook {
  readonly value: unknown;
  /** `$.runner.boundaries` or `$.behavior`. */
  readonly parent: string;
}

/** The hook of a shape's sections, when the file has one. */
export function writtenBoundaryHook(
  value: unknown,
  parent: string,
): { boundaryHook?: WrittenBoundaryHook } {
  return value === undefined ? {} : { boundaryHook: { value, parent } };
}

const AGENT_ENV: DeclaredEnvPlace = { code: "AC-HOOK-005", file: "agent.json" };

/**
 * The definition's `boundaryHook` entry (nothing when absent or unreadable). A wrong field is
 * reported at its JSON path; a bad `env` entry is AC-HOOK-005 and left out.
 */
export function normalizeBoundaryHook(
  written: WrittenBoundaryHook | undefined,
  findings: Findings,
): { boundaryHook?: CommandBoundaryHook } {
  if (written === undefined) return {};
  const { value, parent } = written;
  if (!isPlainObject(value)) {
    // A command string, or something that is neither: the field reader says which.
    const read = readFields(
      { boundaryHook: boundaryHookSchema },
      { boundaryHook: value },
      parent,
      findings,
    );
    return typeof read.boundaryHook === "string"
      ? { boundaryHook: { command: read.boundaryHook } }
      : {};
  }
  const at = jsonPath(parent, "boundaryHook");
  const fields = readFields(boundaryHookObjectSchema.entries, value, at, findings, {
    skip: ["env"],
  });
  if (fields.command === undefined) return {};
  return {
    boundaryHook: {
      command: fields.command,
      ...(fields.timeout === undefined ? {} : { timeoutMs: durationToMs(fields.timeout) }),
      ...readDeclaredEnv(value.env, `${at}.env`, "The boundary hook", findings, AGENT_ENV),
    },
  };
}
