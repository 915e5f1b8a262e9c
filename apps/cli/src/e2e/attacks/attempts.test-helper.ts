/**
 * Attempts and their effects: each attack family runs many attempts (often in one climpt run),
 * each with its own id, and the effects the lab inspection found are attributed to the attempts
 * that aimed at them. The family's test then asserts that no attempt had an effect, listing every
 * effect with its attempt when one did; `CLIMPT_ATTACK_REPORT=1` prints the table of families,
 * attempts and effects at the end of the suite (test/attack-report.ts).
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { inject } from "vitest";
import type { Effect } from "./sinks.test-helper.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where each family writes its report row (test/attack-report.ts reads them). */
    attackReportDir: string;
  }
}

export interface Attempt {
  readonly id: string;
  /** What the attacker does, for the report and the failure message. */
  readonly what: string;
  /** Effect keys that count as this attempt's (`issue:climpt-test/sample#2`, `ref:refs/tags/v9`). */
  readonly keys?: readonly string[];
}

export interface AttemptOutcome {
  readonly attempt: Attempt;
  readonly effects: readonly Effect[];
}

/** Effects by attempt: by the attempt's tag or marker, else by the keys it declared. */
export function attribute(
  attempts: readonly Attempt[],
  effects: readonly Effect[],
): { readonly outcomes: AttemptOutcome[]; readonly unattributed: Effect[] } {
  const outcomes = attempts.map((attempt) => ({ attempt, effects: [] as Effect[] }));
  const unattributed: Effect[] = [];
  for (const effect of effects) {
    const byTag = outcomes.find((outcome) => outcome.attempt.id === effect.attempt);
    const byKey = outcomes.filter((outcome) => outcome.attempt.keys?.includes(effect.key));
    if (byTag !== undefined) byTag.effects.push(effect);
    else if (byKey.length > 0) for (const outcome of byKey) outcome.effects.push(effect);
    else unattributed.push(effect);
  }
  return { outcomes, unattributed };
}

export interface FamilyTally {
  readonly family: string;
  attempts: number;
  effects: number;
  readonly lines: string[];
}

const tallies = new Map<string, FamilyTally>();

/** Adds one batch of attempts to its family's row; returns the text listing every effect. */
export function tally(
  family: string,
  attempts: readonly Attempt[],
  effects: readonly Effect[],
): string {
  const { outcomes, unattributed } = attribute(attempts, effects);
  let row = tallies.get(family);
  if (row === undefined) {
    row = { family, attempts: 0, effects: 0, lines: [] };
    tallies.set(family, row);
  }
  row.attempts += attempts.length;
  const hit = outcomes.filter((outcome) => outcome.effects.length > 0);
  // An effect no attempt can be tied to (a leak without a tag, a crash) counts as one attempt
  // that got through when no attempt of the batch did, so the row never says 0 while something
  // happened; otherwise it is taken for a consequence of those (it is listed either way).
  row.effects += hit.length + (unattributed.length > 0 && hit.length === 0 ? 1 : 0);
  const lines: string[] = [];
  for (const outcome of hit) {
    lines.push(`${outcome.attempt.id} (${outcome.attempt.what}):`);
    for (const effect of outcome.effects) lines.push(`    ${effect.kind}: ${effect.detail}`);
  }
  if (unattributed.length > 0) {
    lines.push("not traced to one attempt:");
    for (const effect of unattributed) lines.push(`    ${effect.kind}: ${effect.detail}`);
  }
  row.lines.push(...lines);
  saveTallies();
  return lines.join("\n");
}

function saveTallies(): void {
  let dir: string | undefined;
  try {
    dir = inject("attackReportDir");
  } catch {
    dir = undefined;
  }
  if (dir === undefined || dir === "") return;
  for (const row of tallies.values()) {
    const file = path.join(dir, `${row.family.replace(/[^A-Za-z0-9]+/g, "-")}.json`);
    writeFileSync(file, `${JSON.stringify(row)}\n`);
  }
}
