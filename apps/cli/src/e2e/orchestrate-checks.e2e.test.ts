import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  type ChecksScenario,
  commitRun,
  type FakeAnthropic,
  reviewReply,
  startFakeAnthropic,
  waitFor,
  writeChecksScenario,
} from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { onlyJson, spawnCli } from "./spawn-cli.test-helper.ts";

// Real runs, a SIGKILL and a second batch: the limit detects a hang, it does not measure speed.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 60_000 });

const open: { scenario: ChecksScenario; fake: FakeAnthropic }[] = [];
afterEach(async () => {
  for (const { scenario, fake } of open.splice(0)) {
    await fake.close();
    scenario.remove();
  }
});

/** Every `issue-<n>.json` record under the orchestrator's state folder. */
function recordOf(repoDir: string, issue: number): Record<string, unknown> | null {
  const walk = (dir: string): string | null => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = walk(full);
        if (found !== null) return found;
      } else if (entry.name === `issue-${issue}.json`) return full;
    }
    return null;
  };
  const file = walk(path.join(repoDir, ".climpt", "orchestrator"));
  return file === null ? null : (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>);
}

describe("climpt orchestrate follows a pull request's CI across a kill", () => {
  it("resumes the wait after kill -9 without asking the model anything again, then moves on when CI turns green", async () => {
    const scenario = writeChecksScenario({
      issues: [1],
      checks: { timeoutMinutes: 5, pollSeconds: 0.3, maxFixAttempts: 1 },
      script: {
        "implementer#1": commitRun(1, "notes/issue-1.md", "one", "widgets: issue #1"),
        "reviewer#1": [reviewReply("approved")],
      },
    });
    const fake = await startFakeAnthropic();
    fake.setHandler(scenario.model.handler);
    open.push({ scenario, fake });
    scenario.gh.scriptChecks("climpt/issue-1", [[{ name: "test", conclusion: "pending" }]]);
    const env = {
      ...scenario.gh.env,
      ANTHROPIC_API_KEY: "sk-test-key",
      ANTHROPIC_BASE_URL: fake.url,
    };
    const checkReads = () =>
      scenario.gh.calls().filter((call) => call.argv[0] === "pr" && call.argv[1] === "checks")
        .length;
    const killed = await spawnCli(["orchestrate", "--json"], {
      cwd: scenario.repoDir,
      env,
      onSpawn: (child) => {
        void waitFor(() => checkReads() >= 3, {
          what: "three reads of the checks",
          limitMs: 240_000,
        })
          .then(() => child.kill("SIGKILL"))
          .catch(() => child.kill("SIGKILL"));
      },
    });
    expect(killed.signal).toBe("SIGKILL");
    const requestsBefore = fake.messageRequests().length;
    expect(requestsBefore).toBe(3);
    const waiting = recordOf(scenario.repoDir, 1)?.checksWait as Record<string, unknown>;
    expect(waiting).toMatchObject({ phase: "ci", attempts: 0 });
    expect(scenario.gh.issue(1)?.labels).toContain("kind:ci");

    // CI finishes while no orchestrator runs.
    scenario.gh.update((state) => {
      for (const run of state.repos["acme/widgets"]?.checkRuns ?? []) {
        run.plan = "success";
        run.pollsUntilDone = 0;
      }
    });
    const resumed = await spawnCli(["orchestrate", "--json"], { cwd: scenario.repoDir, env });
    expect(resumed.code).toBe(0);
    const result = onlyJson(resumed.stdout) as {
      issues: { issue: number; status: string; phase: string; transitions: { to: string }[] }[];
    };
    expect(result.issues.map((issue) => `#${issue.issue} ${issue.status} ${issue.phase}`)).toEqual([
      "#1 completed done",
    ]);
    expect(result.issues[0]?.transitions.map((t) => t.to)).toEqual(["reviewing", "done"]);
    // Only the reviewer's one call was new: the implementer was not asked again.
    expect(fake.messageRequests().length).toBe(requestsBefore + 1);
    expect(scenario.model.repeatedCompletedCalls(fake.requests)).toBe(0);
    expect(scenario.gh.issue(1)?.state).toBe("CLOSED");
    const passed = scenario.gh.issue(1)?.comments.find((c) => c.body.includes("Every check of"));
    expect(passed?.body).toContain("test: pass");
  });
});
