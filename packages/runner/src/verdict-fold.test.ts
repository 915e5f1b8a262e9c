/**
 * One verdict fold: the verdict strategy is fed each step execution live (before the flow routes
 * on it) and again, from the journal, when a run is resumed. A custom verdict that writes down
 * every record it is given shows both: the resumed fold must hand it what the live run did.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadAgentDefinition } from "./run/agent-location.ts";
import { EXAMPLES, fakeModel, makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";
import { tempDirForFile } from "./temp-dirs.test-helper.ts";

// Whole runs against the fake Messages API, twice each (live, then stopped and resumed).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A verdict that records every `observe` (and each time it is made) and decides as detect:graph. */
const RECORDING_VERDICT = `import { appendFileSync } from "node:fs";
export function createVerdict(spec) {
  const file = spec.config.recordTo;
  appendFileSync(file, JSON.stringify({ created: true }) + "\\n");
  return {
    type: "meta:custom",
    observe(record) { appendFileSync(file, JSON.stringify(record) + "\\n"); },
    async afterIteration() { return undefined; },
    async decide(ctx) {
      return ctx.validation.passed
        ? { done: true, reason: "closure validated" }
        : { done: false, reason: "closure not validated" };
    },
    uvVariables() { return {}; },
  };
}
`;

/** fix-bug with the recording verdict, in a folder of its own; returns it and the record file. */
function recordingAgent(): { dir: string; records: string } {
  const root = tempDirForFile("climpt-verdict-fold-");
  const dir = path.join(root, "fix-bug");
  cpSync(path.join(EXAMPLES, "agents", "fix-bug"), dir, { recursive: true });
  const records = path.join(root, "observed.jsonl");
  writeFileSync(path.join(dir, "record-verdict.mjs"), RECORDING_VERDICT);
  const agentFile = path.join(dir, "agent.json");
  const agent = JSON.parse(readFileSync(agentFile, "utf8"));
  agent.runner.verdict = {
    type: "meta:custom",
    config: { handlerPath: "record-verdict.mjs", recordTo: records },
  };
  writeFileSync(agentFile, `${JSON.stringify(agent, null, 2)}\n`);
  return { dir, records };
}

/** The records, split at each new strategy (a run, then its resume). */
function recordsByStrategy(file: string): unknown[][] {
  const groups: unknown[][] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line === "") continue;
    const record = JSON.parse(line) as Record<string, unknown>;
    if (record.created === true) groups.push([]);
    else groups.at(-1)?.push(record);
  }
  return groups;
}

describe("one verdict fold, live and on resume", () => {
  it("a resumed run feeds the verdict exactly the records the live run fed it, and ends with the same verdict", async () => {
    const uninterrupted = recordingAgent();
    const first = await fakeModel("fix-bug");
    closers.push(() => first.fake.close());
    const whole = await new StepFlowRunner(await loadAgentDefinition(uninterrupted.dir), {
      modelClient: first.client,
    }).run({ args: { issue: 1 }, cwd: makeSampleRepo() });
    expect(whole.success).toBe(true);
    const [live = []] = recordsByStrategy(uninterrupted.records);
    expect(live.length).toBeGreaterThan(1);

    // The same run, stopped by a token budget after its first step, then resumed.
    const split = recordingAgent();
    const second = await fakeModel("fix-bug");
    closers.push(() => second.fake.close());
    const runner = new StepFlowRunner(await loadAgentDefinition(split.dir), {
      modelClient: second.client,
    });
    const repo = makeSampleRepo();
    const stopped = await runner.run({ args: { issue: 1 }, cwd: repo, budgets: { maxTokens: 1 } });
    expect(stopped.error?.code).toBe("AGENT_BUDGET_EXCEEDED");
    const resumed = await runner.run({ resume: stopped.runId, cwd: repo });
    expect(resumed.success).toBe(true);

    const [beforeStop = [], afterResume = []] = recordsByStrategy(split.records);
    // Resume folded the journal's step ends into a fresh strategy: the same records, in order,
    // as the live run gave the first one, then the run went on live as the uninterrupted one.
    expect(beforeStop).toEqual(live.slice(0, beforeStop.length));
    expect(afterResume).toEqual(live.slice(0, afterResume.length));
    expect(afterResume.length).toBe(live.length);
    expect(resumed.verdict).toEqual(whole.verdict);
    expect(resumed.state.history).toEqual(whole.state.history);
  });
});
