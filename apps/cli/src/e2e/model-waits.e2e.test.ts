/**
 * A model call never waits without a bound, even with no `--max-time`: an API that accepts the
 * connection and never answers ends the call at the connect timeout (AC-MODEL-004), a stream
 * that stalls after it started at the stream idle timeout (AC-MODEL-011). The run fails coded
 * and resumable, its journal keeps the step, and `climpt resume` completes it.
 *
 * The bounds here are a second, set by the environment variable, by the flag (which wins over
 * the variable) and by agent.json; the defaults themselves (60 s and 3 min, never infinite) are
 * checked on a fake clock by @climpt/sdk-adapter's wait-bounds test.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { type FakeAnthropic, type FakeReply, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, initFiles, makeProject } from "./project.test-helper.ts";
import { spawnCli, stopRunningClis } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 11 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const fakes: FakeAnthropic[] = [];
const dirs: string[] = [];
afterEach(stopRunningClis);
afterAll(async () => {
  await Promise.all(fakes.map((fake) => fake.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const plan = reply.json({
  stepId: "initial.work",
  summary: "Planned.",
  plan: { approach: "Do it." },
  next_action: { action: "next", reason: "planned" },
});
const handoff = reply.json({
  stepId: "continuation.work",
  summary: "Done.",
  work: { description: "Nothing to change", files: [] },
  next_action: { action: "handoff", reason: "done" },
});
const closing = reply.json({
  stepId: "closure.done",
  summary: "Finished.",
  closure: { committed: true, report: "done" },
  next_action: { action: "closing", reason: "complete" },
});

interface Line {
  readonly type: string;
  readonly stepId?: string;
  readonly result?: { resumable: boolean; success: boolean; error?: { code: string } };
}

function journal(cwd: string): Line[] {
  const dir = path.join(cwd, "tmp/climpt/logs/my-agent");
  const file = readdirSync(dir).find((name) => name.endsWith(".jsonl")) as string;
  return readFileSync(path.join(dir, file), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Line);
}

/** The scaffolded agent, with `limits` merged into agent.json. */
async function project(limits: Record<string, number> = {}) {
  const files: Record<string, string | object> = { ...initFiles("my-agent") };
  const written = files["agent.json"];
  const agent = (typeof written === "string" ? JSON.parse(written) : written) as Record<
    string,
    unknown
  >;
  files["agent.json"] = { ...agent, limits: { ...(agent.limits as object), ...limits } };
  const cwd = makeProject("my-agent", files);
  dirs.push(cwd);
  const fake = await startFakeAnthropic();
  fakes.push(fake);
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key", ...GIT_IDENTITY };
  return { cwd, fake, env };
}

/** Three times the same wait: the first call and the client's two retries. */
const thrice = (wait: FakeReply): FakeReply[] => [wait, wait, wait];
const stall = reply.cutStream([{ type: "text", text: '{"stepId": "continuation.work"' }], {
  afterEvents: 4,
  stall: true,
});

describe("model calls end at their bounds without --max-time, resumably", () => {
  it("a connection accepted and never answered: AC-MODEL-004, then resume completes", async () => {
    const { cwd, fake, env } = await project();
    fake.enqueue(plan, ...thrice(reply.hang()));
    const run = await spawnCli(["run", "my-agent", "--task", "t", "--json"], {
      cwd,
      env: { ...env, CLIMPT_CONNECT_TIMEOUT: "1s" },
    });
    expect(run.code, run.stderr).toBe(1);
    const result = JSON.parse(run.stdout) as Line["result"] & { runId: string };
    expect(result?.error?.code).toBe("AC-MODEL-004");
    expect(result?.resumable).toBe(true);
    expect(run.stderr).toContain("within 1000 ms");
    const lines = journal(cwd);
    expect(lines.filter((line) => line.type === "step_end").map((line) => line.stepId)).toEqual([
      "initial.work",
    ]);
    expect(lines.at(-1)?.type).toBe("run_end");

    fake.enqueue(handoff, closing);
    const resumed = await spawnCli(["resume", result.runId, "--json"], { cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((JSON.parse(resumed.stdout) as { success: boolean }).success).toBe(true);
    // 1 + 3 waits before, then the two replies: the completed first step was not asked again.
    expect(fake.messageRequests()).toHaveLength(6);
  });

  it("a stream that stalls after it started: AC-MODEL-011 by the flag over the variable", async () => {
    const { cwd, fake, env } = await project();
    fake.enqueue(plan, ...thrice(stall));
    const run = await spawnCli(
      ["run", "my-agent", "--task", "t", "--json", "--stream-idle-timeout", "1s"],
      // The variable alone would allow ten minutes: the flag is what ends the wait.
      { cwd, env: { ...env, CLIMPT_STREAM_IDLE_TIMEOUT: "10m" } },
    );
    expect(run.code, run.stderr).toBe(1);
    const result = JSON.parse(run.stdout) as Line["result"] & { runId: string };
    expect(result?.error?.code).toBe("AC-MODEL-011");
    expect(result?.resumable).toBe(true);

    fake.enqueue(handoff, closing);
    const resumed = await spawnCli(["resume", result.runId, "--json"], { cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
  });

  it("agent.json limits.streamIdleTimeoutMs bounds a stalled stream too", async () => {
    const { cwd, fake, env } = await project({ streamIdleTimeoutMs: 1000 });
    fake.enqueue(plan, ...thrice(stall));
    const run = await spawnCli(["run", "my-agent", "--task", "t", "--json"], { cwd, env });
    expect(run.code, run.stderr).toBe(1);
    expect((JSON.parse(run.stdout) as Line["result"])?.error?.code).toBe("AC-MODEL-011");
  });

  it("a variable that is not a duration is a usage error before anything runs", async () => {
    const { cwd, fake, env } = await project();
    const run = await spawnCli(["run", "my-agent", "--task", "t"], {
      cwd,
      env: { ...env, CLIMPT_CONNECT_TIMEOUT: "soon" },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("CLIMPT_CONNECT_TIMEOUT");
    expect(fake.messageRequests()).toHaveLength(0);
  });
});
