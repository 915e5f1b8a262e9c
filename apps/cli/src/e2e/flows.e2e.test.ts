import { readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { checkAgentFiles, triageAgentFiles } from "./flows.test-helper.ts";
import { GIT_IDENTITY, initFiles, makeProject } from "./project.test-helper.ts";
import { onlyJson, spawnCli } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 15 s at load 13–25.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

let fake: FakeAnthropic;
const projects: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => {
  fake.reset();
});
afterAll(async () => {
  await fake.close();
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

function project(name: string, files: Record<string, string | object>): string {
  const dir = makeProject(name, files);
  projects.push(dir);
  return dir;
}

async function runJson(cwd: string, args: readonly string[]) {
  const outcome = await spawnCli(["run", ...args, "--json"], {
    cwd,
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key", ...GIT_IDENTITY },
  });
  const result = onlyJson(outcome.stdout) as {
    success: boolean;
    iterations: number;
    finalStepId: string | null;
    error?: { code: string; family?: string; message: string };
    resumable: boolean;
    state: {
      history: {
        stepId: string;
        intent: string | null;
        transition: string;
        checkResult: { passed: boolean } | null;
      }[];
    };
  };
  const path = result.state.history.map(
    (entry) =>
      `${entry.stepId} ${entry.checkResult === null ? (entry.intent ?? "-") : entry.checkResult.passed ? "OK" : "NG"} → ${entry.transition}`,
  );
  return { ...outcome, result, path };
}

const work = (summary: string) =>
  reply.json({ result: { summary }, next_action: { action: "handoff" } });
const closing = reply.json({ next_action: { action: "closing" } });

describe("gate-dialect flows through climpt run", () => {
  it("branches on a conditional transition by the handoff value", async () => {
    const cwd = project("triage", triageAgentFiles());
    fake.enqueue(
      reply.json({ triage: { kind: "docs" }, next_action: { action: "next" } }),
      work("wrote docs"),
      closing,
    );
    const docs = await runJson(cwd, ["triage", "--task", "document slugify"]);
    expect(docs.code, docs.stderr).toBe(0);
    expect(docs.path).toEqual([
      "initial.triage next → continuation.docs",
      "continuation.docs handoff → closure.done",
      "closure.done closing → closing",
    ]);

    fake.enqueue(
      reply.json({ triage: { kind: "other" }, next_action: { action: "next" } }),
      work("fixed"),
      closing,
    );
    const other = await runJson(cwd, ["triage", "--task", "something else"]);
    expect(other.code, other.stderr).toBe(0);
    expect(other.path[0]).toBe("initial.triage next → continuation.fix");
  });

  it("jumps to the step the model names", async () => {
    const cwd = project("triage", triageAgentFiles());
    fake.enqueue(
      reply.json({
        triage: { kind: "bug" },
        next_action: { action: "jump", target: "continuation.docs" },
      }),
      work("docs after all"),
      closing,
    );
    const { code, path, stderr } = await runJson(cwd, ["triage", "--task", "x"]);
    expect(code, stderr).toBe(0);
    expect(path[0]).toBe("initial.triage jump → continuation.docs");
    expect(stderr).toContain("  jump → continuation.docs");
  });

  it("fails fast on a jump to a step that does not exist (exit 1, coded)", async () => {
    const cwd = project("triage", triageAgentFiles());
    fake.enqueue(
      reply.json({
        triage: { kind: "bug" },
        next_action: { action: "jump", target: "continuation.nowhere" },
      }),
    );
    const { code, result, stderr } = await runJson(cwd, ["triage", "--task", "x"]);
    expect(code).toBe(1);
    expect(result.success).toBe(false);
    expect(result.error?.code).toMatch(/^(SR-TRANS-010|FAILED_STEP_ROUTING)$/);
    expect(stderr).toContain("✗ failed");
  });
});

describe("check-dialect flows through climpt run", () => {
  it("retries a step whose check fails, falls back from a failed review, and completes", async () => {
    const cwd = project("reviewer", checkAgentFiles("reviewer"));
    const step = (text: string) => reply.json({ summary: text });
    const check = (result: "ok" | "ng", message: string) => reply.json({ result, message });
    fake.enqueue(
      step("first try"),
      check("ng", "tests still fail"), // onFail: retry
      step("second try"),
      check("ok", "done"),
      step("reviewed"),
      check("ng", "a leftover debug line"), // onFail: fallback to the work step
      step("removed the debug line"),
      check("ok", "clean"),
      step("reviewed again"),
      check("ok", "ready"),
    );
    const { code, path, result, stderr } = await runJson(cwd, ["reviewer", "--task", "tidy up"]);
    expect(code, stderr).toBe(0);
    const [work, review] = [path[0]?.split(" ")[0], path[2]?.split(" ")[0]];
    expect(path).toEqual([
      `${work} NG → ${work}`,
      `${work} OK → ${review}`,
      `${review} NG → ${work}`,
      `${work} OK → ${review}`,
      `${review} OK → complete`,
    ]);
    expect(result.iterations).toBe(5);
    expect(stderr).toContain("  ✗ check failed: tests still fail");
    expect(stderr).toContain("  ✓ check passed: ready");
  });
});

describe("fail-fast and limits", () => {
  it("ends with FAILED_SCHEMA_RESOLUTION when the output never matches the step schema", async () => {
    const cwd = project("my-agent", initFiles("my-agent"));
    fake.setHandler(() => reply.json({ stepId: "initial.work", note: "not the schema" }));
    const { code, result, stderr } = await runJson(cwd, ["my-agent", "--task", "x"]);
    expect(code).toBe(1);
    // The run-level code is the error's family; its code is the last attempt's own (JSON that
    // does not match the schema).
    expect(result.error).toMatchObject({ code: "AC-STEP-002", family: "FAILED_SCHEMA_RESOLUTION" });
    expect(result.finalStepId === null || result.finalStepId === "initial.work").toBe(true);
    expect(stderr).toContain("✗ failed AC-STEP-002 (FAILED_SCHEMA_RESOLUTION)");
    // One repair turn per attempt, two attempts: four calls, then stop.
    expect(fake.messageRequests()).toHaveLength(4);
  });

  it("fails fast with FAILED_STEP_ROUTING when a later step returns no intent", async () => {
    const files = initFiles("loose");
    // A schema where next_action is optional, so the output passes and the gate must judge it.
    const schema = JSON.parse(files["schemas/loose.schema.json"] as string) as {
      definitions: Record<string, { required: string[] }>;
    };
    for (const definition of Object.values(schema.definitions)) {
      definition.required = definition.required.filter((key) => key !== "next_action");
    }
    const cwd = project("loose", { ...files, "schemas/loose.schema.json": schema });
    fake.enqueue(
      reply.json({
        stepId: "initial.work",
        summary: "s",
        plan: { approach: "a" },
        next_action: { action: "next", reason: "r" },
      }),
      reply.json({
        stepId: "continuation.work",
        summary: "s",
        work: { description: "d", files: [] },
      }),
    );
    const { code, result, stderr } = await runJson(cwd, ["loose", "--task", "x"]);
    expect(code, stderr).toBe(1);
    // The run-level code is the error's family; its code is the gate's specific one.
    expect(result.error).toMatchObject({ code: "SR-INTENT-007", family: "FAILED_STEP_ROUTING" });
    expect(result.error?.message).toContain('Step "continuation.work" returned no intent');
    expect(stderr).toContain("✗ failed SR-INTENT-007 (FAILED_STEP_ROUTING)");
    // Fail-fast: no further model call after the step without an intent.
    expect(fake.messageRequests()).toHaveLength(2);
  });

  it("stops at --max-iterations with AGENT_MAX_ITERATIONS", async () => {
    const cwd = project("my-agent", initFiles("my-agent"));
    fake.setHandler((request) => {
      const text = JSON.stringify(request.body);
      if (text.includes("Step: plan the work"))
        return reply.json({
          stepId: "initial.work",
          summary: "s",
          plan: { approach: "a" },
          next_action: { action: "next", reason: "r" },
        });
      return reply.json({
        stepId: "continuation.work",
        summary: "s",
        work: { description: "d", files: [] },
        next_action: { action: "handoff", reason: "r" },
      });
    });
    const { code, result, stderr } = await runJson(cwd, [
      "my-agent",
      "--task",
      "x",
      "--max-iterations",
      "2",
    ]);
    expect(code).toBe(1);
    expect(result.error?.code).toBe("AGENT_MAX_ITERATIONS");
    expect(result.error?.message).toContain("iteration cap of 2");
    expect(result.iterations).toBe(2);
    expect(fake.messageRequests()).toHaveLength(2);
    expect(stderr).toContain("✗ failed AGENT_MAX_ITERATIONS");
  });

  it("stops when --max-tokens is spent, with a resumable journal", async () => {
    const cwd = project("my-agent", initFiles("my-agent"));
    fake.setHandler(() =>
      reply.json(
        {
          stepId: "initial.work",
          summary: "s",
          plan: { approach: "a" },
          next_action: { action: "next", reason: "r" },
        },
        { usage: { input_tokens: 400, output_tokens: 200 } },
      ),
    );
    const { code, result, stderr } = await runJson(cwd, [
      "my-agent",
      "--task",
      "x",
      "--max-tokens",
      "500",
    ]);
    expect(code).toBe(1);
    expect(result.error?.code).toBe("AGENT_BUDGET_EXCEEDED");
    expect(result.resumable).toBe(true);
    expect(stderr).toMatch(/Resume: climpt resume \S+/);
    const journal = (result as unknown as { journalPath: string }).journalPath;
    expect(readFileSync(journal, "utf8").trim().split("\n").length).toBeGreaterThan(2);
    expect(path.isAbsolute(journal)).toBe(true);
  });

  it("stops when --max-cost is spent", async () => {
    const cwd = project("my-agent", initFiles("my-agent"));
    fake.setHandler(() =>
      reply.json({
        stepId: "initial.work",
        summary: "s",
        plan: { approach: "a" },
        next_action: { action: "next", reason: "r" },
      }),
    );
    const { code, result } = await runJson(cwd, [
      "my-agent",
      "--task",
      "x",
      "--max-cost",
      "0.000001",
    ]);
    expect(code).toBe(1);
    expect(result.error?.code).toBe("AGENT_BUDGET_EXCEEDED");
  });

  it("stops when --max-time runs out, even while the model has not answered", async () => {
    const cwd = project("my-agent", initFiles("my-agent"));
    // The model never answers, so the wall-clock budget is the only way this run can end: a
    // broken budget shows as a hang (caught by the hang limit), never as a slow pass.
    fake.enqueue(reply.hang());
    const stopped = await runJson(cwd, ["my-agent", "--task", "x", "--max-time", "1s"]);
    expect(stopped.code).toBe(1);
    expect(stopped.result.error?.code).toBe("AGENT_BUDGET_EXCEEDED");
    expect(stopped.result.resumable).toBe(true);
    const runId = (stopped.result as unknown as { runId: string }).runId;
    expect(stopped.stderr).toContain(`Resume: climpt resume ${runId}`);

    // The journal it left is resumable: without the budget, the run finishes from it.
    fake.reset();
    fake.enqueue(
      reply.json({
        stepId: "initial.work",
        summary: "s",
        plan: { approach: "a" },
        next_action: { action: "next", reason: "r" },
      }),
      reply.json({
        stepId: "continuation.work",
        summary: "nothing to change",
        work: { description: "none", files: [] },
        next_action: { action: "handoff", reason: "done" },
      }),
      reply.json({
        stepId: "closure.done",
        summary: "Finished.",
        closure: { committed: true, report: "nothing to do" },
        next_action: { action: "closing", reason: "complete" },
      }),
    );
    const resumed = await spawnCli(["run", "my-agent", "--resume", runId, "--json"], {
      cwd,
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key", ...GIT_IDENTITY },
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    const finished = onlyJson(resumed.stdout) as { runId: string; finalStepId: string | null };
    expect(finished.runId).toBe(runId);
    expect(finished.finalStepId).toBe("closure.done");
  });
});
