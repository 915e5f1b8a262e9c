/**
 * The run's iteration cap comes from `resolveRunIterationCap` (docs/design.md#limits-and-budgets):
 * `--max-iterations`, then `limits.maxIterations`, then the verdict's `maxIterations` (the cap the
 * original runtime applies), then the dialect's default. Shown on the considerer shape: a single
 * closure step whose `repeat` loops back to itself, capped by `maxIterations: 1` in its verdict.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { originalShapeDir, startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { intentReply } from "./agents.test-helper.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import type { RunOptions } from "./run/run-options.ts";
import { makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";
import { tempDirForFile } from "./temp-dirs.test-helper.ts";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A copy of the considerer shape, agent.json edited by `edit`. */
function considerer(edit: (agent: Record<string, unknown>) => void = () => {}): string {
  const root = tempDirForFile("climpt-cap-");
  const dir = path.join(root, "considerer");
  cpSync(originalShapeDir("considerer"), dir, { recursive: true });
  const file = path.join(dir, "agent.json");
  const agent = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  edit(agent);
  writeFileSync(file, JSON.stringify(agent));
  return dir;
}

/** The closure's reply asking to go round again. */
const again = intentReply("repeat", {
  stepId: "consider",
  summary: "need another look",
  verdict: "done",
});

async function runRepeating(dir: string, options: RunOptions = {}) {
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  // More replies than any cap here allows: only the cap can end the run before they run out.
  fake.enqueue(...Array.from({ length: 6 }, () => again));
  const loaded = await loadAgentDefinition(dir);
  const result = await new StepFlowRunner(loaded, {
    modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url, maxRetries: 0 }),
  }).run({ cwd: makeSampleRepo(), args: { issue: 7 }, ...options });
  return { result, calls: fake.messageRequests().length };
}

describe("the run cap", () => {
  it("is the verdict's maxIterations when nothing else declares one: considerer stops after one call", async () => {
    const { result, calls } = await runRepeating(considerer());
    expect(calls).toBe(1);
    expect(result.iterations).toBe(1);
  });

  it("is limits.maxIterations over the verdict's", async () => {
    const dir = considerer((agent) => {
      agent.limits = { maxIterations: 3 };
    });
    const { result, calls } = await runRepeating(dir);
    expect(calls).toBe(3);
    expect(result.iterations).toBe(3);
  });

  it("is --max-iterations over both", async () => {
    const dir = considerer((agent) => {
      agent.limits = { maxIterations: 3 };
    });
    const { calls } = await runRepeating(dir, { maxIterations: 2 });
    expect(calls).toBe(2);
  });
});
