/**
 * Field checks every step reader shares: C3L segments that stay names, the key / id agreement,
 * and the per-step permissions.
 */
import type { StepLimits, StepPermissions } from "@climpt/model";
import { type Findings, report } from "./field-reader.ts";

/**
 * C3L segments become folder and file names; a separator or a `.`/`..` segment would let a
 * definition point the prompt loader outside the prompts folder.
 */
export function checkPromptSegments(
  segments: Partial<Record<"c1" | "c2" | "c3" | "edition" | "adaptation", string>>,
  at: string,
  findings: Findings,
): void {
  for (const key of ["c1", "c2", "c3", "edition", "adaptation"] as const) {
    const value = segments[key];
    if (value === undefined || !(/[/\\]/.test(value) || value === "." || value === "..")) continue;
    report(
      findings,
      "SR-LOAD-007",
      `${at}.${key}`,
      `${key} "${value}" is not a single name: C3L segments become folder and file names and may not leave the prompts folder.`,
      `Write ${key} as one name without "/" (e.g. "initial"); nest folders with c1/c2/c3 instead.`,
    );
  }
}

export function checkStepKey(
  key: string,
  written: string | undefined,
  field: "stepId" | "id",
  at: string,
  findings: Findings,
): void {
  if (written === undefined || written === key) return;
  report(
    findings,
    "SR-VALID-001",
    `${at}.${field}`,
    `Step "${key}" declares ${field} "${written}"; the key in steps and the ${field} must be the same.`,
    `Set ${field} to "${key}", or rename the key to "${written}" (and every reference to it).`,
  );
}

export function permissionsOf(fields: {
  allowedTools?: readonly string[];
  permissionMode?: StepPermissions["permissionMode"];
}): StepPermissions {
  return {
    ...(fields.allowedTools === undefined ? {} : { allowedTools: fields.allowedTools }),
    ...(fields.permissionMode === undefined ? {} : { permissionMode: fields.permissionMode }),
  };
}

/** A step's `limits`, as the model holds them: only the budgets it writes; none, no key. */
export function limitsOf(fields: { limits?: StepLimits }): { limits?: StepLimits } {
  const written = fields.limits;
  if (written === undefined) return {};
  const limits: { -readonly [K in keyof StepLimits]: StepLimits[K] } = {};
  for (const key of ["maxIterations", "maxTokens", "maxCostUsd"] as const) {
    const value = written[key];
    if (typeof value === "number") limits[key] = value;
  }
  return Object.keys(limits).length === 0 ? {} : { limits };
}
