import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadFleetModules } from "@climpt/orchestrator";
import { type FleetScenarioRun, reply, runFleetScenario } from "@climpt/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { BIN, onlyJson, spawnCli } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 46 s at load 13–25.
vi.setConfig({ testTimeout: 210_000, hookTimeout: 210_000 });

// Six issues, 23 model calls, ~80 gh processes, two workers and a kill: a minute alone, several on
// a busy 2-core machine. The limit detects a hang; it does not measure speed.
const FLEET_LIMIT_MS = 420_000;

let run: FleetScenarioRun | undefined;
const folders: string[] = [];
afterAll(async () => {
  await run?.cleanUp();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
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

describe("climpt fork --queue: a fleet's run forked on another clone", () => {
  it("reads the run's journal from Redis (left unchanged), fetches only its snapshots from the remote, and asks the model nothing for the steps before the fork point", async () => {
    if (run === undefined) throw new Error("the fleet scenario above did not run");
    const { scenario, fake, redis } = run;
    const { Redis } = await loadFleetModules();
    const client = new Redis(redis.url, { maxRetriesPerRequest: 3 });
    try {
      // Issue #1's implementer run: initial.implement (writes and commits the note), then
      // closure.implement. Its journal is in Redis, its snapshots on the shared remote.
      let sourceId: string | undefined;
      for (const key of await client.keys("climpt:journal:implementer:*")) {
        if (key.endsWith(":writer")) continue;
        const [first] = await client.xrange(key, "-", "+", "COUNT", 1);
        const start = JSON.parse(first?.[1][1] ?? "{}") as { args?: { issue?: number } };
        if (start.args?.issue === 1) sourceId = key.split(":").at(-1);
      }
      expect(sourceId).toBeDefined();
      const streamKey = `climpt:journal:implementer:${sourceId}`;
      const streamBefore = JSON.stringify(await client.xrange(streamKey, "-", "+"));
      const gitIn = (cwd: string, ...args: string[]): string =>
        execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
      // The remote every worker pushed to.
      const bare = gitIn(run.machines.w1?.checkout ?? "", "remote", "get-url", "origin");
      const remoteRefs = gitIn(
        bare,
        "for-each-ref",
        "--format=%(refname)",
        `refs/climpt/${sourceId}/`,
      );
      // The fleet pushed the start's and both step ends' snapshots with the issue's branch.
      expect(remoteRefs.split("\n")).toEqual([
        `refs/climpt/${sourceId}/0-start`,
        `refs/climpt/${sourceId}/1-initial.implement`,
        `refs/climpt/${sourceId}/2-closure.implement`,
      ]);
      const remoteBranches = gitIn(bare, "for-each-ref", "--format=%(refname) %(objectname)");
      const pointSnapshot = gitIn(bare, "rev-parse", `refs/climpt/${sourceId}/1-initial.implement`);

      // Another machine: a fresh clone that never ran the fleet, made through git's transport
      // (a clone by path would copy every object, the snapshots' among them). The fork's model
      // answers only the close-out; a request for initial.implement would find nothing queued.
      const home = mkdtempSync(path.join(tmpdir(), "climpt-fleet-fork-"));
      folders.push(home);
      const forker = { checkout: path.join(home, "widgets") };
      execFileSync("git", ["clone", "-q", "--no-local", bare, forker.checkout]);
      expect(() => gitIn(forker.checkout, "cat-file", "-e", `${pointSnapshot}^{commit}`)).toThrow();
      fake.reset();
      fake.setHandler(undefined);
      fake.enqueue(
        reply.json({
          stepId: "closure.implement",
          summary: "Forked close-out: the note is committed.",
          next_action: { action: "closing" },
        }),
      );
      const env: Record<string, string> = {
        ...(scenario.gh.env as Record<string, string>),
        ANTHROPIC_API_KEY: "sk-test-key",
        ANTHROPIC_BASE_URL: fake.url,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@example.com",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@example.com",
      };
      const forked = await spawnCli(
        [
          "fork",
          sourceId as string,
          "--agent",
          ".agent/implementer",
          "--cwd",
          forker.checkout,
          "--queue",
          redis.url,
          "--remote",
          "origin",
          "--at",
          "closure.implement",
          "--json",
        ],
        { env, cwd: forker.checkout },
      );
      expect(forked.code, forked.stderr + forked.stdout).toBe(0);
      const result = onlyJson(forked.stdout);
      expect(result).toMatchObject({ success: true, finalStepId: "closure.implement" });

      // One request: the close-out, fed the source's handoff from its Redis journal.
      const requests = fake.messageRequests();
      expect(requests).toHaveLength(1);
      const body = JSON.stringify(requests[0]?.body);
      expect(body).toContain("Recorded pass 1 of issue #1 in notes/issue-1.md.");
      expect(body).not.toContain("Implement it on this branch");
      expect(fake.pending()).toBe(0);

      // The fork's branch starts from the source's snapshot: the note the fleet committed.
      const branch = (result.worktree as { branch: string }).branch;
      expect(gitIn(forker.checkout, "log", "-1", "--format=%s", branch)).toBe(
        "widgets: issue #1, pass 1",
      );
      // Its own refs to the snapshots it inherited; none of the source's was kept here.
      const forkId = result.runId as string;
      expect(
        gitIn(forker.checkout, "for-each-ref", "--format=%(refname)", "refs/climpt/"),
      ).not.toContain(sourceId);
      expect(
        gitIn(
          forker.checkout,
          "for-each-ref",
          "--format=%(refname)",
          `refs/climpt/${forkId}/`,
        ).split("\n"),
      ).toEqual(
        expect.arrayContaining([
          `refs/climpt/${forkId}/0-start`,
          `refs/climpt/${forkId}/1-initial.implement`,
        ]),
      );
      // The source is as the fleet left it: its Redis stream, the remote's refs and branches.
      expect(JSON.stringify(await client.xrange(streamKey, "-", "+"))).toBe(streamBefore);
      expect(gitIn(bare, "for-each-ref", "--format=%(refname) %(objectname)")).toBe(remoteBranches);
      expect(await client.exists(`climpt:journal:implementer:${forkId}`)).toBe(0);

      // A run the fleet's Redis does not hold: refused, coded, nothing asked of the model.
      fake.reset();
      const missing = await spawnCli(
        [
          "fork",
          "20990101T000000Z-abcdef",
          "--agent",
          ".agent/implementer",
          "--cwd",
          forker.checkout,
          "--queue",
          redis.url,
          "--at",
          "2",
          "--json",
        ],
        { env, cwd: forker.checkout },
      );
      expect(missing.code).toBe(2);
      expect(missing.stdout).toContain("ORC-JOURNAL-002");
      expect(fake.messageRequests()).toHaveLength(0);
    } finally {
      client.disconnect();
    }
  });
});
