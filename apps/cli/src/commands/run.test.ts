import { rmSync } from "node:fs";
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIo, StopSignal } from "../cli-io.ts";
import { initFiles, makeProject } from "../e2e/project.test-helper.ts";
import { main } from "../main.ts";

let fake: FakeAnthropic;
let cwd: string;

beforeAll(async () => {
  fake = await startFakeAnthropic();
  cwd = makeProject("my-agent", initFiles("my-agent"));
  // The SDK reads the endpoint and key from the process environment, as it does for users.
  process.env.ANTHROPIC_BASE_URL = fake.url;
  process.env.ANTHROPIC_API_KEY = "test-key";
});
afterAll(async () => {
  delete process.env.ANTHROPIC_BASE_URL;
  delete process.env.ANTHROPIC_API_KEY;
  await fake.close();
  rmSync(cwd, { recursive: true, force: true });
});

describe("climpt run and stop signals (in process)", () => {
  it("aborts on the first Ctrl-C and exits at once (130) on the second", async () => {
    fake.enqueue(reply.hang());
    const stderr: string[] = [];
    const exits: number[] = [];
    let stop: ((signal: StopSignal) => void) | undefined;
    let unhooked = false;
    const io: CliIo = {
      stdout: { write: () => {} },
      stderr: { write: (text) => void stderr.push(text), isTTY: false },
      env: { ANTHROPIC_API_KEY: "test-key" },
      cwd,
      onStopSignal: (handler) => {
        stop = handler;
        return () => {
          unhooked = true;
        };
      },
      exitNow: (code) => void exits.push(code),
    };
    const running = main(["run", "my-agent", "--task", "x"], io);
    // No bound of its own: a busy machine only makes this wait longer; a request that never
    // comes is a hang for the test's hang limit.
    while (fake.messageRequests().length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(fake.messageRequests()).toHaveLength(1);
    stop?.("SIGINT");
    expect(exits).toEqual([]);
    expect(stderr.join("")).toContain(
      "Ctrl-C: stopping the run; the journal is kept. Press Ctrl-C again to exit at once.",
    );
    stop?.("SIGINT");
    expect(exits).toEqual([130]);
    expect(stderr.join("")).toContain("Exiting at once; the journal may miss the current step.");
    // Had the process not exited, the aborted run still ends as a failed, resumable run.
    expect(await running).toBe(1);
    expect(stderr.join("")).toContain("AGENT_INTERRUPTED");
    expect(unhooked).toBe(true);
    expect(stderr.join("")).toMatch(/Resume: climpt resume \S+/);
  });
});
