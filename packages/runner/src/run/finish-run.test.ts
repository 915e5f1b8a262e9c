import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { intentReply, type TestAgentSpec, writeTestAgent } from "../agents.test-helper.ts";
import { readJournal } from "../journal-read.ts";
import { fakeGhThatNeverCloses, makeSampleRepo } from "../runner.test-helper.ts";
import { StepFlowRunner } from "../step-flow-runner.ts";
import { tempDirForFile } from "../temp-dirs.test-helper.ts";
import { loadAgentDefinition } from "./agent-location.ts";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A poll:state agent that closes issue `issue` through the boundary hook. */
function pollerSpec(): TestAgentSpec {
  return {
    name: "poller",
    entryStep: "initial.work",
    parameters: { issue: { type: "number", required: true } },
    runner: {
      verdict: { type: "poll:state", config: {} },
      integrations: { github: { enabled: true, defaultClosureAction: "close" } },
    },
    steps: {
      "initial.work": {
        intents: ["handoff"],
        transitions: { handoff: { target: "closure.done" } },
      },
      "closure.done": { intents: ["closing"], transitions: { closing: { target: null } } },
    },
  };
}

describe("finishing", () => {
  it("a verdict the boundary hook did not satisfy records the closure step once, before the hook", async () => {
    const gh = fakeGhThatNeverCloses();
    const spec = pollerSpec();
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.enqueue(intentReply("handoff"), intentReply("closing"));
    const loaded = await loadAgentDefinition(writeTestAgent(spec));
    const result = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({
        apiKey: "sk-test-key",
        baseURL: fake.url,
        maxRetries: 0,
      }),
      ghCommand: gh,
    }).run({ cwd: makeSampleRepo(), args: { issue: 7 } });

    expect(result.error?.code).toBe("AGENT_VERDICT_UNCONFIRMED");
    expect(result.state.history.map((entry) => `${entry.stepId}->${entry.transition}`)).toEqual([
      "initial.work->closure.done",
      "closure.done->closing",
    ]);
    const order = readJournal(result.journalPath as string)
      .map((event) => (event.type === "step_end" ? `step_end:${event.stepId}` : event.type))
      .filter((type) => /^(step_end|verdict|boundary_hook|run_end)/.test(type));
    expect(order).toEqual([
      "step_end:initial.work",
      "verdict",
      "step_end:closure.done",
      "boundary_hook_start",
      "boundary_hook",
      "run_end",
    ]);
  });

  it("a failed boundary action is reported with its reason in the result and the journal", async () => {
    // gh refuses to close (no permission) but reads the issue: the hook fails, with a reason.
    const gh = path.join(tempDirForFile("climpt-gh-"), "gh");
    writeFileSync(
      gh,
      `#!/bin/sh\nif [ "$1 $2" = "issue view" ]; then echo '{"state":"OPEN","labels":[]}'; exit 0; fi\necho "HTTP 403: Resource not accessible by integration" >&2\nexit 1\n`,
    );
    chmodSync(gh, 0o755);
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.enqueue(intentReply("handoff"), intentReply("closing"));
    const loaded = await loadAgentDefinition(writeTestAgent(pollerSpec()));
    const result = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({
        apiKey: "sk-test-key",
        baseURL: fake.url,
        maxRetries: 0,
      }),
      ghCommand: gh,
    }).run({ cwd: makeSampleRepo(), args: { issue: 7 } });

    expect(result.success).toBe(false);
    expect(result.boundary?.ok).toBe(false);
    const reason = result.boundary?.problems[0];
    expect(reason?.code).toBe("AC-HOOK-003");
    expect(reason?.message).toContain("gh issue close` for issue #7 exited 1");
    expect(reason?.message).toContain("HTTP 403: Resource not accessible by integration");
    const hook = readJournal(result.journalPath as string).find(
      (event) => event.type === "boundary_hook",
    );
    expect(hook?.type === "boundary_hook" && hook.problems).toEqual(result.boundary?.problems);
  });
});
