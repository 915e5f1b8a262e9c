import { type FleetScenarioRun, runFleetScenario } from "@climpt/testing";
import { afterAll, describe, expect, it } from "vitest";
import { BIN } from "./spawn-cli.test-helper.ts";

// Six issues, 23 model calls, ~80 gh processes, two workers and a kill: a minute alone, several on
// a busy 2-core machine. The limit detects a hang; it does not measure speed.
const FLEET_LIMIT_MS = 420_000;

let run: FleetScenarioRun | undefined;
afterAll(async () => {
  await run?.cleanUp();
});

describe("climpt orchestrate --queue + two climpt worker processes on a private redis-server", () => {
  it(
    "takes the six issues to their phases although one worker is SIGKILLed mid-step: the other resumes its run without repeating a completed model call",
    async () => {
      run = await runFleetScenario({ cliPath: BIN, timeoutMs: FLEET_LIMIT_MS - 30_000 });
      const { summary, scenario, logs, killedWorker, status } = run;
      expect(summary).toMatchObject({
        issues: 6,
        terminal: 4,
        blocked: 2,
        workers: 2,
        killed: 1,
        repeatedModelCalls: 0,
      });
      expect(summary.resumedRuns).toBeGreaterThanOrEqual(1);

      // The killed worker was running #3's implementer; #3's job moved to the other worker, which
      // resumed that run: the call cut off by the kill was asked again, and no other call.
      expect(killedWorker).not.toBeNull();
      expect(logs[killedWorker ?? ""]?.some((line) => line.includes("#3 runs implementer"))).toBe(
        true,
      );
      const survivor = killedWorker === "w1" ? "w2" : "w1";
      expect(
        logs[survivor]?.some((line) => line.includes("acme/widgets#3 resumes implementer")),
      ).toBe(true);
      expect(status.jobs.find((job) => job.id === "acme/widgets#3")).toMatchObject({
        state: "completed",
        worker: survivor,
        status: "completed",
      });
      expect(
        status.jobs.find((job) => job.id === "acme/widgets#3")?.stalled,
      ).toBeGreaterThanOrEqual(1);
      expect(
        scenario.model.served
          .filter((call) => call.repeat)
          .map((call) => `${call.key}:${call.index}`),
      ).toEqual(["implementer#3:1"]);

      // Every issue ends where its script leads: phase label, open or closed, comments.
      for (const [number, expected] of Object.entries(scenario.expected)) {
        const issue = scenario.gh.issue(Number(number));
        expect({
          number,
          label: issue?.labels.includes(expected.label),
          state: issue?.state,
          comments: issue?.comments.length,
        }).toEqual({
          number,
          label: true,
          state: expected.state,
          comments: expected.comments,
        });
      }
      expect(status.counts).toMatchObject({ completed: 6, failed: 0, active: 0, waiting: 0 });
    },
    FLEET_LIMIT_MS,
  );
});
