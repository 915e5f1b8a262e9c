/**
 * One attack family's plumbing: a fake Messages API serving every lab's scripted attacker, labs
 * made and removed with the test file, and `attackLabs`, which runs a family's labs (a few at a
 * time: each is a climpt run with sandboxed commands), inspects each, and tallies the attempts
 * and their effects for the report.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { type FakeAnthropic, startFakeAnthropic } from "@climpt/testing";
import { afterAll, beforeAll } from "vitest";
import { stopRunningClis } from "../spawn-cli.test-helper.ts";
import { type Attempt, tally } from "./attempts.test-helper.ts";
import {
  type ClimptRun,
  createLab,
  type Lab,
  type LabOptions,
  runAttacker,
} from "./lab.test-helper.ts";
import { type AttackScript, ScriptedAttackers } from "./scripted-attacker.test-helper.ts";
import { type Effect, type InspectOptions, inspectLab } from "./sinks.test-helper.ts";

export interface LabAttack {
  readonly lab: Omit<LabOptions, "apiUrl">;
  /** The scripted model's moves, given the lab (its paths go into payloads). */
  readonly script: (lab: Lab) => AttackScript;
  readonly attempts: readonly Attempt[];
  /** More `climpt run` arguments (`--worktree`, `--issue 1`, …). */
  readonly args?: readonly string[];
  readonly inspect?: InspectOptions;
  /** Hang detector for the run; default 150 s. */
  readonly boundMs?: number;
  /** Runs after the climpt run and before the inspection; may return effects of its own. */
  readonly after?: (lab: Lab, run: ClimptRun) => Promise<readonly Effect[]> | readonly Effect[];
}

export interface FamilyContext {
  readonly fake: () => FakeAnthropic;
  readonly attackers: () => ScriptedAttackers;
  /** A lab for a test that drives climpt itself; removed after the file. */
  readonly lab: (options: Omit<LabOptions, "apiUrl">) => Lab;
}

/** Registers the file's fake API and lab clean-up; call at the top of a family's test file. */
export function familySetup(): FamilyContext {
  let fake: FakeAnthropic | undefined;
  let attackers: ScriptedAttackers | undefined;
  const labs: Lab[] = [];
  beforeAll(async () => {
    fake = await startFakeAnthropic();
    attackers = new ScriptedAttackers(fake);
  });
  afterAll(async () => {
    stopRunningClis();
    await fake?.close();
    if (process.env.CLIMPT_ATTACK_KEEP !== "1") for (const lab of labs) lab.remove();
  });
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("familySetup: used outside a test");
    return value;
  };
  return {
    fake: () => need(fake),
    attackers: () => need(attackers),
    lab: (options) => {
      const lab = createLab({ ...options, apiUrl: need(fake).url });
      labs.push(lab);
      return lab;
    },
  };
}

/** The requests the model received in a lab, as text. */
export function requestTexts(context: FamilyContext, lab: Lab): string[] {
  return context
    .attackers()
    .requestsOf(lab.id)
    .map((request) => request.rawBody);
}

async function oneLab(context: FamilyContext, attack: LabAttack): Promise<readonly Effect[]> {
  const lab = context.lab(attack.lab);
  context.attackers().set(lab.id, attack.script(lab));
  const run = await runAttacker(lab, attack.args ?? [], {
    ...(attack.boundMs === undefined ? {} : { boundMs: attack.boundMs }),
  });
  // Kept for whoever reads a failed test's labs (CLIMPT_ATTACK_KEEP=1); outside every sink.
  writeFileSync(
    path.join(lab.root, "climpt-run.log"),
    `${run.args.join(" ")}\nexit ${run.code}\n${run.stderr}\n${run.stdout}`,
  );
  const extra = (await attack.after?.(lab, run)) ?? [];
  return [...extra, ...inspectLab(lab, run, requestTexts(context, lab), attack.inspect ?? {})];
}

/**
 * Runs the labs of one family, `parallel` at a time, and tallies every attempt. Returns the
 * effects as text, one attempt per paragraph: empty when the boundary held everywhere.
 */
export async function attackLabs(
  context: FamilyContext,
  family: string,
  attacks: readonly LabAttack[],
  parallel = 2,
): Promise<string> {
  const results: { attack: LabAttack; effects: readonly Effect[] }[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < attacks.length) {
      const attack = attacks[next++] as LabAttack;
      results.push({ attack, effects: await oneLab(context, attack) });
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, attacks.length) }, worker));
  const reports = results.map((result) => tally(family, result.attack.attempts, result.effects));
  return reports.filter((text) => text !== "").join("\n");
}
