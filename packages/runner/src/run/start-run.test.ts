import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type TestAgentSpec, writeTestAgent } from "../agents.test-helper.ts";
import { makeSampleRepo } from "../runner.test-helper.ts";
import { AgentDefinitionError } from "../runner-error.ts";
import { StepFlowRunner } from "../step-flow-runner.ts";
import { tempDirForFile } from "../temp-dirs.test-helper.ts";
import { loadAgentDefinition } from "./agent-location.ts";

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

  it("makes validate's checks before the first model call: a prompt a later step sends, and git outside a repository", async () => {
    const broken: TestAgentSpec = {
      ...spec,
      parameters: { issue: { type: "number", required: true, cli: "--issue" } },
      steps: {
        "initial.work": {
          intents: ["handoff"],
          transitions: { handoff: { target: "closure.done" } },
          prompt: "Issue {uv-issue}.",
        },
        "closure.done": {
          intents: ["closing"],
          transitions: { closing: { target: null } },
          prompt: "Close issue {uv-issue_number}.",
        },
      },
      registry: {
        validators: {
          clean: {
            type: "command",
            command: "git status --porcelain",
            successWhen: "empty",
            failurePattern: "dirty",
          },
        },
        failurePatterns: {
          dirty: { description: "dirty", edition: "failed", fallback: "built-in" },
        },
        validationSteps: {
          "closure.done": {
            stepId: "closure.done",
            validationConditions: [{ validator: "clean" }],
            onFailure: { action: "retry", maxAttempts: 2 },
          },
        },
      },
    };
    const loaded = await loadAgentDefinition(writeTestAgent(broken));
    const cwd = tempDirForFile("climpt-not-a-repo-");
    let calls = 0;
    const runner = new StepFlowRunner(loaded, {
      modelClient: {
        call: () => {
          calls += 1;
          return Promise.reject(new Error("not called"));
        },
      },
    });
    const refused = runner.run({ cwd, args: { issue: 7 } });
    await expect(refused).rejects.toBeInstanceOf(AgentDefinitionError);
    const error = (await refused.catch((caught: unknown) => caught)) as AgentDefinitionError;
    expect(error.problems.map((problem) => `${problem.severity} ${problem.code}`)).toEqual([
      "error PR-RESOLVE-005",
      "error RUN-CWD-002",
    ]);
    expect(error.problems[0]?.hint).toMatch(
      /^Did you mean \{uv-issue\}\? \(parameter issue, --issue\)/,
    );
    expect(calls).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
  });
});
