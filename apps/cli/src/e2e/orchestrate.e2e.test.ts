import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  type FakeAnthropic,
  startFakeAnthropic,
  type WorkflowScenario,
  writeWorkflowScenario,
} from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { onlyJson, spawnCli } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 31 s at load 13–25.
vi.setConfig({ testTimeout: 150_000, hookTimeout: 150_000 });

// A batch of six issues through real runs and ~80 gh processes: a minute alone, more on a busy
// machine. The limit detects a hang; it does not measure speed.
const BATCH_LIMIT_MS = 420_000;

const open: { scenario: WorkflowScenario; fake: FakeAnthropic }[] = [];
afterEach(async () => {
  for (const { scenario, fake } of open.splice(0)) {
    await fake.close();
    scenario.remove();
  }
});

async function project(): Promise<{
  scenario: WorkflowScenario;
  fake: FakeAnthropic;
  env: Record<string, string>;
}> {
  const scenario = writeWorkflowScenario();
  const fake = await startFakeAnthropic();
  fake.setHandler(scenario.model.handler);
  open.push({ scenario, fake });
  return {
    scenario,
    fake,
    env: { ...scenario.gh.env, ANTHROPIC_API_KEY: "sk-test-key", ANTHROPIC_BASE_URL: fake.url },
  };
}

describe("climpt labels sync, orchestrate --dry-run and orchestrate on one machine", () => {
  it(
    "syncs the labels, prints the plan without touching anything, then runs the batch and exits 0",
    async () => {
      const { scenario, fake, env } = await project();
      const sync = await spawnCli(["labels", "sync", "--json"], { cwd: scenario.repoDir, env });
      expect(sync.code).toBe(0);
      const synced = onlyJson(sync.stdout) as { labels: { name: string; action: string }[] };
      expect(synced.labels.filter((label) => label.action === "created")).toHaveLength(7);
      expect(
        synced.labels
          .filter((label) => label.action === "updated")
          .map((label) => label.name)
          .sort(),
      ).toEqual(["kind:consider", "kind:detail", "kind:impl", "needs-triage"]);

      const writes = () =>
        scenario.gh.calls().filter((call) => !["list", "view"].includes(call.argv[1] ?? "")).length;
      const writesBefore = writes();
      const plan = await spawnCli(["orchestrate", "--dry-run"], { cwd: scenario.repoDir, env });
      expect(plan.code).toBe(0);
      expect(plan.stdout.split("\n").slice(0, 3)).toEqual([
        "ISSUE  PHASE         AGENT        NOTE",
        "#1     inbox         triager",
        "#2     inbox         triager",
      ]);
      expect(fake.messageRequests()).toHaveLength(0);
      expect(writes()).toBe(writesBefore);

      const batch = await spawnCli(
        ["orchestrate", "--prioritize", "--concurrency", "2", "--json"],
        {
          cwd: scenario.repoDir,
          env,
        },
      );
      expect(batch.code).toBe(0);
      const result = onlyJson(batch.stdout) as {
        status: string;
        order: number[];
        issues: { issue: number; status: string; phase: string }[];
      };
      expect(result.status).toBe("completed");
      expect(result.order).toEqual([3, 6, 1, 2, 4, 5]);
      expect(
        Object.fromEntries(
          result.issues.map((issue) => [issue.issue, `${issue.status} ${issue.phase}`]),
        ),
      ).toEqual({
        1: "completed done",
        2: "completed done",
        3: "completed done",
        4: "blocked blocked",
        5: "completed wontfix",
        6: "blocked blocked",
      });
      expect(batch.stderr).toContain("#3 reviewing → done (reviewer: approved), closed");
      expect(fake.messageRequests()).toHaveLength(scenario.modelCalls);
      // A second pass finds nothing to do: every issue is terminal or blocked.
      const again = await spawnCli(["orchestrate", "--json"], { cwd: scenario.repoDir, env });
      expect(again.code).toBe(0);
      expect(fake.messageRequests()).toHaveLength(scenario.modelCalls);
    },
    BATCH_LIMIT_MS,
  );

  it("refuses an invalid workflow with its coded problems (exit 2), bad flags with AC-CLI codes, and a bad queue URL", async () => {
    const { scenario, env } = await project();
    const workflowFile = path.join(scenario.repoDir, ".agent", "workflow.json");
    const workflow = JSON.parse(readFileSync(workflowFile, "utf8"));
    workflow.phases.reviewing.agent = "reviewr";
    writeFileSync(workflowFile, JSON.stringify(workflow));
    const invalid = await spawnCli(["orchestrate", "--json"], { cwd: scenario.repoDir, env });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain("WF-REF-001");
    expect(invalid.stderr).toContain('Did you mean "reviewer"?');
    expect(onlyJson(invalid.stdout)).toMatchObject({ ok: false, error: { code: "WF-REF-001" } });

    const conflict = await spawnCli(
      ["orchestrate", "--queue", "redis://127.0.0.1:1", "--concurrency", "2"],
      { cwd: scenario.repoDir, env },
    );
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toContain("AC-CLI-011");
    const badUrl = await spawnCli(["worker", "--queue", "http://x"], {
      cwd: scenario.repoDir,
      env,
    });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain("ORC-QUEUE-002");
    const noKey = await spawnCli(["orchestrate"], { cwd: scenario.repoDir, env: scenario.gh.env });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("AC-CLI-009");
    const unreachable = await spawnCli(["fleet", "status", "--queue", "redis://127.0.0.1:1"], {
      cwd: scenario.repoDir,
      env,
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain("ORC-QUEUE-001");
    const labels = await spawnCli(["labels", "create"], { cwd: scenario.repoDir, env });
    expect(labels.code).toBe(2);
    expect(labels.stderr).toContain("AC-CLI-006");
  });
});
