/**
 * `climpt resume` refuses a run whose agent definition changed since it started
 * (RUN-RESUME-006), says how to go on, and `--accept-changed-definition` continues it.
 */
import { rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git, initFiles, makeProject } from "./project.test-helper.ts";
import { onlyJson, spawnCli } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 6 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

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

const ENV = () => ({
  ANTHROPIC_BASE_URL: fake.url,
  ANTHROPIC_API_KEY: "test-key",
  ...GIT_IDENTITY,
});

/** An intent the first step's schema refuses: enough of them end the run (schema failures). */
const refused = reply.json({ next_action: { action: "elsewhere", reason: "no" } });

describe("climpt resume and a changed agent definition", () => {
  it("refuses with RUN-RESUME-006 and the way on; --accept-changed-definition resumes", async () => {
    const dir = makeProject("my-agent", initFiles("my-agent"));
    projects.push(dir);
    fake.enqueue(refused, refused, refused, refused);
    const failed = await spawnCli(["run", "my-agent", "--task", "tidy up", "--json"], {
      cwd: dir,
      env: ENV(),
    });
    expect(failed.code, failed.stderr).toBe(1);
    const { runId } = onlyJson(failed.stdout) as { runId: string };

    writeFileSync(
      path.join(dir, ".agent", "my-agent", "prompts", "system.md"),
      "You are someone else now.\n",
    );
    git(dir, "commit", "-qam", "a new system prompt");
    fake.reset();
    const refusedResume = await spawnCli(["resume", runId], { cwd: dir, env: ENV() });
    expect(refusedResume.code).toBe(2);
    expect(refusedResume.stderr).toContain("RUN-RESUME-006");
    expect(refusedResume.stderr).toContain("prompts/system.md");
    expect(refusedResume.stderr).toContain(`climpt resume ${runId} --accept-changed-definition`);
    expect(fake.messageRequests()).toHaveLength(0);

    fake.enqueue(
      reply.json({
        stepId: "initial.work",
        summary: "Read the repository.",
        plan: { approach: "Nothing to change." },
        next_action: { action: "next", reason: "planned" },
      }),
      reply.json({
        stepId: "continuation.work",
        summary: "Nothing to do.",
        work: { description: "nothing", files: [] },
        next_action: { action: "handoff", reason: "done" },
      }),
      reply.json({
        stepId: "closure.done",
        summary: "Finished.",
        closure: { committed: true, report: "nothing" },
        next_action: { action: "closing", reason: "complete" },
      }),
    );
    const resumed = await spawnCli(["resume", runId, "--accept-changed-definition", "--json"], {
      cwd: dir,
      env: ENV(),
    });
    expect(resumed.code, `${resumed.stderr}\n${resumed.stdout}`).toBe(0);
    expect(resumed.stderr).toContain("RUN-RESUME-006");
    expect((onlyJson(resumed.stdout) as { success: boolean }).success).toBe(true);
  });
});
