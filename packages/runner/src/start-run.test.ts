import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadAgentDefinition } from "./agent-location.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";
import { type TestAgentSpec, writeTestAgent } from "./test-agents.ts";
import { makeSampleRepo } from "./test-support.ts";

const spec: TestAgentSpec = {
  name: "capped",
  entryStep: "initial.work",
  steps: {
    "initial.work": { intents: ["handoff"], transitions: { handoff: { target: "closure.done" } } },
    "closure.done": { intents: ["closing"], transitions: { closing: { target: null } } },
  },
};

describe("setup", () => {
  it("refuses an iteration cap that is not a positive integer before anything runs or is written", async () => {
    const loaded = await loadAgentDefinition(writeTestAgent(spec));
    const cwd = makeSampleRepo();
    const before = readdirSync(cwd);
    let calls = 0;
    const runner = new StepFlowRunner(loaded, {
      modelClient: {
        call: () => {
          calls += 1;
          return Promise.reject(new Error("not called"));
        },
      },
    });
    for (const maxIterations of [0, -3, 1.5]) {
      await expect(runner.run({ cwd, maxIterations })).rejects.toMatchObject({
        code: "AGENT_MAX_ITERATIONS",
        message: expect.stringContaining("positive integer"),
      });
    }
    expect(calls).toBe(0);
    expect(readdirSync(cwd)).toEqual(before);
  });
});
