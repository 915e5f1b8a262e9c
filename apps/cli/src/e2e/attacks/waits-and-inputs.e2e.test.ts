/**
 * Family 6 — waits and inputs. A Messages API that accepts the connection and then sends nothing
 * (before the headers, or in the middle of the stream) with no `--max-time`; definition files
 * that are FIFOs (the model can put one in place of any file of the agent folder in the working
 * tree); step ids that name members of Object.prototype; a journal line nested 100,000 deep
 * that the model appends to its own journal. Every command must end, within a bound, with one
 * of its documented exit codes (0, 1, 2), never hang and never crash (3).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { reply } from "@climpt/testing";
import { describe, expect, it, vi } from "vitest";
import { ATTACK_AGENT } from "./attack-agent.test-helper.ts";
import { type Attempt, tally } from "./attempts.test-helper.ts";
import { familySetup, requestTexts } from "./family.test-helper.ts";
import { type ClimptRun, type Lab, runAttacker, runClimpt } from "./lab.test-helper.ts";
import { bash } from "./scripted-attacker.test-helper.ts";
import { type Effect, inspectLab, outcomeEffects } from "./sinks.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 25 s at load 13–25.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const context = familySetup();
const FAMILY = "6 waits and inputs";

/**
 * The stalled-API attacks run with the model-wait bounds climpt reads from the environment set
 * to 2 s, so the suite does not idle for minutes: what they check is that nothing on the path
 * (the SDK's retries, the runner, the CLI) waits past those bounds without `--max-time`. The
 * defaults themselves (60 s to the first byte, 3 min of stream silence) are checked on a fake
 * clock by @climpt/sdk-adapter's wait-bounds test; CLIMPT_ATTACK_DEFAULT_BOUNDS=1 runs these
 * two attacks with the defaults instead (each then takes about four minutes).
 */
const DEFAULT_BOUNDS = process.env.CLIMPT_ATTACK_DEFAULT_BOUNDS === "1";
const STALL_ENV: Readonly<Record<string, string>> = DEFAULT_BOUNDS
  ? {}
  : { CLIMPT_CONNECT_TIMEOUT: "2s", CLIMPT_STREAM_IDLE_TIMEOUT: "2s" };
/** How long a run against a stalled API may take to end by itself (the issue saw 130 s and on). */
const STALL_BOUND_MS = DEFAULT_BOUNDS ? 600_000 : 60_000;
/** How long a command may take on a definition it must refuse (a FIFO, a bad step id). */
const REFUSAL_BOUND_MS = 30_000;

/** Tags each effect with its attempt, tallies the batch, and returns the report text. */
function report(results: readonly { attempt: Attempt; effects: readonly Effect[] }[]): string {
  return tally(
    FAMILY,
    results.map((result) => result.attempt),
    results.flatMap((result) =>
      result.effects.map((effect) => ({ ...effect, attempt: result.attempt.id })),
    ),
  );
}

function agentFile(lab: Lab, relative: string): string {
  return path.join(lab.repo, ".agent", ATTACK_AGENT, relative);
}

describe(`attack family ${FAMILY}`, () => {
  it("ends a run against a stalled Messages API by itself, without --max-time", {
    timeout: STALL_BOUND_MS + 60_000,
  }, async () => {
    const cases = [
      {
        id: "stalled-before-headers",
        what: "the API accepts the connection and sends nothing",
        every: () => reply.hang(),
      },
      {
        id: "stalled-mid-stream",
        what: "the API starts the stream and then sends nothing more",
        every: () => reply.cutStream(undefined, { afterEvents: 3, stall: true }),
      },
    ];
    const results = await Promise.all(
      cases.map(async (attack) => {
        const lab = context.lab({ name: attack.id });
        context.attackers().set(lab.id, { work: [], every: attack.every });
        const run = await runAttacker(lab, [], { boundMs: STALL_BOUND_MS, env: STALL_ENV });
        return {
          attempt: { id: attack.id, what: attack.what },
          effects: [...outcomeEffects(run, [1])],
        };
      }),
    );
    expect(report(results)).toBe("");
  });

  it("refuses definition files that are FIFOs instead of waiting for a writer", async () => {
    const cases = [
      { id: "fifo-agent-validate", file: "agent.json", args: ["validate", ATTACK_AGENT] },
      {
        id: "fifo-registry-validate",
        file: "steps_registry.json",
        args: ["validate", ATTACK_AGENT],
      },
      {
        id: "fifo-schema-validate",
        file: "schemas/attack.schema.json",
        args: ["validate", ATTACK_AGENT],
      },
      {
        id: "fifo-system-prompt-validate",
        file: "prompts/system.md",
        args: ["validate", ATTACK_AGENT],
      },
      { id: "fifo-agent-run", file: "agent.json", args: ["run", ATTACK_AGENT] },
      { id: "fifo-registry-list", file: "steps_registry.json", args: ["list"] },
    ];
    const results = await Promise.all(
      cases.map(async (attack) => {
        const lab = context.lab({ name: attack.id });
        const file = agentFile(lab, attack.file);
        rmSync(file);
        execFileSync("mkfifo", [file]);
        const run = await runClimpt(lab, attack.args, { boundMs: REFUSAL_BOUND_MS });
        return {
          attempt: { id: attack.id, what: `climpt ${attack.args[0]} with ${attack.file} a FIFO` },
          effects: outcomeEffects(run),
        };
      }),
    );
    expect(report(results)).toBe("");
  });

  it("works with, or refuses with a code, step ids named like Object.prototype members", async () => {
    const cases = [
      { id: "stepid-proto-validate", step: "__proto__", command: "validate" },
      { id: "stepid-proto-run", step: "__proto__", command: "run" },
      { id: "stepid-constructor-validate", step: "constructor", command: "validate" },
      { id: "stepid-constructor-run", step: "constructor", command: "run" },
      { id: "stepid-tostring-validate", step: "toString", command: "validate" },
      { id: "stepid-hasownproperty-validate", step: "hasOwnProperty", command: "validate" },
    ];
    const results = await Promise.all(
      cases.map(async (attack) => {
        const lab = context.lab({ name: attack.id });
        const registry = agentFile(lab, "steps_registry.json");
        writeFileSync(
          registry,
          readFileSync(registry, "utf8").replaceAll('"initial.work"', JSON.stringify(attack.step)),
        );
        context.attackers().set(lab.id, { work: [{ turns: [] }] });
        const run =
          attack.command === "run"
            ? await runAttacker(lab, [], { boundMs: REFUSAL_BOUND_MS })
            : await runClimpt(lab, ["validate", ATTACK_AGENT], { boundMs: REFUSAL_BOUND_MS });
        return {
          attempt: {
            id: attack.id,
            what: `climpt ${attack.command} with the entry step named "${attack.step}"`,
          },
          effects: outcomeEffects(run),
        };
      }),
    );
    expect(report(results)).toBe("");
  });

  it("keeps going through a command's and a validator's huge output", async () => {
    const lab = context.lab({
      name: "huge-output",
      agent: {
        validators: [{ id: "noisy", command: "head -c 300000000 /dev/zero | tr '\\0' x; true" }],
      },
    });
    context.attackers().set(lab.id, {
      work: [{ turns: [[bash("head -c 300000000 /dev/zero | tr '\\0' y", "huge-bash-output")]] }],
    });
    const run = await runAttacker(lab, [], { boundMs: 120_000 });
    const results = [
      {
        attempt: { id: "huge-bash-output", what: "a Bash call prints 300 MB" },
        effects: outcomeEffects(run, [0, 1]),
      },
      {
        attempt: { id: "huge-validator-output", what: "a validator prints 300 MB" },
        effects: inspectLab(lab, run, requestTexts(context, lab), { userGitCheck: false }),
      },
    ];
    expect(report(results)).toBe("");
  });

  it("reads a journal line the model nested 100,000 deep without crashing show, runs, view or resume", async () => {
    const lab = context.lab({ name: "journal-nested" });
    const deep = 100_000;
    context.attackers().set(lab.id, {
      work: [
        {
          turns: [
            [
              bash(
                `J=$(ls -t tmp/climpt/logs/${ATTACK_AGENT}/*.jsonl | head -1)\nnode -e 'process.stdout.write("{\\"type\\":\\"step_end\\",\\"x\\":" + "[".repeat(${deep}) + "]".repeat(${deep}) + "}\\n")' >> "$J"`,
                "journal-nested",
              ),
            ],
          ],
        },
      ],
    });
    const run = await runAttacker(lab);
    const runId = (JSON.parse(run.stdout) as { runId: string }).runId;
    const commands: { id: string; args: string[] }[] = [
      { id: "nested-show", args: ["show", runId] },
      { id: "nested-show-json", args: ["show", runId, "--json"] },
      { id: "nested-runs", args: ["runs"] },
      { id: "nested-view", args: ["view", runId, "--out", path.join(lab.root, "view.html")] },
      { id: "nested-resume", args: ["resume", runId] },
    ];
    const results: { attempt: Attempt; effects: Effect[] }[] = [
      {
        attempt: { id: "nested-run", what: "the run whose journal the model appended the line to" },
        effects: inspectLab(lab, run, requestTexts(context, lab), { userGitCheck: false }),
      },
    ];
    for (const command of commands) {
      const outcome: ClimptRun = await runClimpt(lab, command.args, { boundMs: REFUSAL_BOUND_MS });
      results.push({
        attempt: {
          id: command.id,
          what: `climpt ${command.args[0]} on a journal with a line nested ${deep} deep`,
        },
        effects: outcomeEffects(outcome),
      });
    }
    expect(report(results)).toBe("");
  });
});
