import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type FleetScenarioRun, runFleetScenario } from "@climpt/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { BIN } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 46 s at load 13–25.
vi.setConfig({ testTimeout: 210_000, hookTimeout: 210_000 });

// Six issues, 23 model calls, ~80 gh processes, two workers and a kill: a minute alone, several on
// a busy 2-core machine. The limit detects a hang; it does not measure speed.
const FLEET_LIMIT_MS = 420_000;

let run: FleetScenarioRun | undefined;
afterAll(async () => {
  await run?.cleanUp();
});

/** The events of every journal of `agent`'s runs in an issue worktree, one array per run. */
function journalsIn(worktree: string, agent: string): { type: string; cwd?: string }[][] {
  const dir = path.join(worktree, "tmp", "climpt", "logs", agent);
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) =>
      readFileSync(path.join(dir, name), "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as { type: string; cwd?: string }),
    );
}

describe("climpt orchestrate --queue + two climpt worker processes on a private redis-server", () => {
  it(
    "takes the six issues to their phases although one worker is SIGKILLed mid-step: the other, on a machine of its own, resumes its run from the Redis journal and the pushed branch without repeating a completed model call",
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

      // The workers shared no disk: the survivor read the killed run from Redis (its copy of
      // the journal starts with the other machine's run_start) and continued it in a worktree
      // rebuilt from the branch the killed worker had pushed.
      const killedMachine = run.machines[killedWorker ?? ""];
      const survivorMachine = run.machines[survivor];
      expect(killedMachine?.checkout).not.toBe(survivorMachine?.checkout);
      const resumedHere = journalsIn(
        path.join(survivorMachine?.worktreeRoot ?? "", "issue-3"),
        "implementer",
      ).filter((events) => events.some((event) => event.type === "run_resume"));
      expect(resumedHere).toHaveLength(1);
      expect(
        resumedHere[0]
          ?.find((event) => event.type === "run_start")
          ?.cwd?.startsWith(killedMachine?.worktreeRoot ?? "?"),
      ).toBe(true);
      // The branch on the shared remote holds each of #3's passes once: the tool call cut off
      // mid-step ran again on the survivor, once.
      const checkout = survivorMachine?.checkout ?? "";
      execFileSync("git", ["fetch", "-q", "origin"], { cwd: checkout });
      const log = execFileSync("git", ["log", "--format=%s", "origin/climpt/issue-3"], {
        cwd: checkout,
        encoding: "utf8",
      });
      expect(log.split("\n").filter((line) => line.startsWith("widgets: issue #3"))).toEqual([
        "widgets: issue #3, pass 2",
        "widgets: issue #3, pass 1",
      ]);
    },
    FLEET_LIMIT_MS,
  );
});
