/**
 * Family 7 — lifetimes. `climpt` is killed with SIGKILL while a sandboxed Bash command (and, in
 * another run, a validator) is waiting to finish its work: a commit, a file. Nothing climpt
 * started may outlive it and do that work afterwards, and once the run is resumed to its end no
 * `climpt-*` folder may be left in its private TMPDIR.
 */
import { existsSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { waitUntil } from "@climpt/testing";
import { describe, expect, it } from "vitest";
import { ATTACK_AGENT } from "./attack-agent.test-helper.ts";
import { type Attempt, tally } from "./attempts.test-helper.ts";
import { familySetup } from "./family.test-helper.ts";
import { type Lab, runClimpt } from "./lab.test-helper.ts";
import { safeGit } from "./safe-git.test-helper.ts";
import { bash } from "./scripted-attacker.test-helper.ts";
import type { Effect } from "./sinks.test-helper.ts";

const context = familySetup();
const FAMILY = "7 lifetimes";

/** How long the sandboxed work may take to die with climpt before it counts as surviving. */
const DIE_BOUND_MS = 15_000;

/** Processes (pids) whose working directory is inside `dir`: what a run left running there. */
function processesIn(dir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** A shell loop that says it started, waits for `go`, then does its work and says so. */
function waiter(name: string): string {
  return `touch ${name}.started; while [ ! -e ${name}.go ]; do sleep 0.05; done; git commit --allow-empty -qm ${name}-late; touch ${name}.finished`;
}

/**
 * Starts a run whose `name` work waits in the lab's repository, kills climpt (the process alone,
 * as the OOM killer or a crash would) once the work has started, lets the work go on if it is
 * still there, and reports what happened after the kill. Then resumes the run to its end and
 * looks for `climpt-*` folders left in the lab's TMPDIR.
 */
async function killMidWork(lab: Lab, attempt: Attempt, name: string): Promise<Effect[]> {
  const effects: Effect[] = [];
  const before = safeGit(path.join(lab.repo, ".git"), ["rev-parse", "HEAD"]).stdout.trim();
  let pid: number | undefined;
  const running = runClimpt(lab, ["run", ATTACK_AGENT, "--json"], {
    boundMs: 120_000,
    onSpawn: (child) => {
      pid = child.pid;
    },
  });
  const started = await waitUntil(() => existsSync(path.join(lab.repo, `${name}.started`)), 90_000);
  if (!started || pid === undefined) {
    const outcome = await running;
    throw new Error(`${attempt.id}: the work never started:\n${outcome.stderr}`);
  }
  process.kill(pid, "SIGKILL");
  await running;
  const died = await waitUntil(() => processesIn(lab.repo).length === 0, DIE_BOUND_MS);
  if (!died) {
    effects.push({
      kind: "survivor",
      detail: `processes ${processesIn(lab.repo).join(", ")} outlived climpt`,
      key: "survivor",
    });
  }
  // Whatever survived may now finish; give it the time to.
  writeFileSync(path.join(lab.repo, `${name}.go`), "");
  await waitUntil(() => processesIn(lab.repo).length === 0, DIE_BOUND_MS);
  for (const survivor of processesIn(lab.repo)) {
    try {
      process.kill(survivor, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  if (existsSync(path.join(lab.repo, `${name}.finished`))) {
    effects.push({
      kind: "survivor",
      detail: `the ${name} finished its work after climpt was killed`,
      key: "survivor",
    });
  }
  const after = safeGit(path.join(lab.repo, ".git"), [
    "log",
    "--format=%s",
    `${before}..HEAD`,
  ]).stdout;
  if (after.includes(`${name}-late`)) {
    effects.push({
      kind: "survivor",
      detail: `a commit "${name}-late" was made after climpt was killed`,
      key: "survivor",
    });
  }
  // The run resumes to its end; then nothing of the killed process may be left in TMPDIR.
  const journals = path.join(lab.repo, "tmp", "climpt", "logs", ATTACK_AGENT);
  const runId = readdirSync(journals)[0]?.replace(/\.jsonl$/, "");
  if (runId !== undefined) {
    const resumed = await runClimpt(lab, ["resume", runId], { boundMs: 120_000 });
    if (resumed.hung)
      effects.push({ kind: "hang", detail: "climpt resume did not end", key: "hang" });
  }
  for (const entry of readdirSync(lab.tmp).filter((entry) => entry.startsWith("climpt-"))) {
    effects.push({
      kind: "leftover",
      detail: `TMPDIR still holds ${entry} after the resumed run ended`,
      key: "leftover",
    });
  }
  return effects.map((effect) => ({ ...effect, attempt: attempt.id }));
}

describe(`attack family ${FAMILY}`, () => {
  it("lets nothing climpt started outlive a kill -9 of climpt, and leaves no folder behind", async () => {
    const bashAttempt: Attempt = {
      id: "kill-mid-bash",
      what: "kill -9 of climpt while a sandboxed Bash command waits to commit",
    };
    const validatorAttempt: Attempt = {
      id: "kill-mid-validator",
      what: "kill -9 of climpt while a validator waits to commit",
    };
    const bashLab = context.lab({ name: "kill-bash" });
    context
      .attackers()
      .set(bashLab.id, { work: [{ turns: [[bash(waiter("bash"), bashAttempt.id, 600_000)]] }] });
    const validatorLab = context.lab({
      name: "kill-validator",
      agent: { validators: [{ id: "slow", command: `${waiter("validator")}; true` }] },
    });
    context.attackers().set(validatorLab.id, { work: [{ turns: [] }] });
    const [bashEffects, validatorEffects] = await Promise.all([
      killMidWork(bashLab, bashAttempt, "bash"),
      killMidWork(validatorLab, validatorAttempt, "validator"),
    ]);
    const text = tally(
      FAMILY,
      [bashAttempt, validatorAttempt],
      [...bashEffects, ...validatorEffects],
    );
    expect(text).toBe("");
  });
});
