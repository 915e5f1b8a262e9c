import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FailureFinding } from "./failure-findings.ts";

/** What the command did on the base commit, as far as the comparison needs it. */
export type BaseOutcome =
  | {
      readonly kind: "ran";
      readonly passed: boolean;
      readonly exitCode: number | null;
      readonly findings: readonly FailureFinding[];
    }
  | { readonly kind: "unavailable"; readonly reason: string };

/** What a cached outcome is keyed by: one commit, one command, judged and read one way. */
export interface BaseOutcomeKey {
  readonly baseSha: string;
  /** The rendered command. */
  readonly command: string;
  readonly successWhen: string;
  /** The failure-naming extractors that read its output, in order. */
  readonly extractors: readonly string[];
}

const FORMAT = 1;

function fileOf(dir: string, key: BaseOutcomeKey): string {
  const digest = createHash("sha256")
    .update(JSON.stringify([FORMAT, key.baseSha, key.command, key.successWhen, key.extractors]))
    .digest("hex");
  return path.join(dir, `${digest}.json`);
}

/**
 * The outcome stored for `key`, or undefined when there is none or it is not one this code
 * wrote (a damaged file is run again, not trusted).
 */
export async function readBaseOutcome(
  dir: string,
  key: BaseOutcomeKey,
): Promise<BaseOutcome | undefined> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(fileOf(dir, key), "utf8"));
  } catch {
    return undefined;
  }
  if (typeof raw !== "object" || raw === null) return undefined;
  const stored = raw as Record<string, unknown>;
  if (
    stored.format !== FORMAT ||
    stored.baseSha !== key.baseSha ||
    stored.command !== key.command ||
    stored.successWhen !== key.successWhen
  ) {
    return undefined;
  }
  return validOutcome(stored.outcome);
}

function validOutcome(value: unknown): BaseOutcome | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const outcome = value as Record<string, unknown>;
  if (outcome.kind === "unavailable" && typeof outcome.reason === "string") {
    return { kind: "unavailable", reason: outcome.reason };
  }
  if (
    outcome.kind !== "ran" ||
    typeof outcome.passed !== "boolean" ||
    !(typeof outcome.exitCode === "number" || outcome.exitCode === null) ||
    !Array.isArray(outcome.findings)
  ) {
    return undefined;
  }
  const findings: FailureFinding[] = [];
  for (const item of outcome.findings as unknown[]) {
    const finding = item as Record<string, unknown> | null;
    if (typeof finding?.key !== "string" || typeof finding.label !== "string") return undefined;
    findings.push({ key: finding.key, label: finding.label });
  }
  return { kind: "ran", passed: outcome.passed, exitCode: outcome.exitCode, findings };
}

/** Stores the outcome for `key` (written whole, then renamed, so a reader never sees half). */
export async function writeBaseOutcome(
  dir: string,
  key: BaseOutcomeKey,
  outcome: BaseOutcome,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = fileOf(dir, key);
  const partial = `${file}.${process.pid}.partial`;
  const record = {
    format: FORMAT,
    baseSha: key.baseSha,
    command: key.command,
    successWhen: key.successWhen,
    extractors: key.extractors,
    outcome,
  };
  await writeFile(partial, `${JSON.stringify(record)}\n`);
  await rename(partial, file);
}
