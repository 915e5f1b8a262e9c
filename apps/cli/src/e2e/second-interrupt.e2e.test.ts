/**
 * A second Ctrl-C always ends the process, even when it is stuck in a system call no stop can
 * interrupt. The scenario never ends by itself: after the first Ctrl-C the process has every
 * thread of its I/O pool blocked opening a FIFO nobody reads (what a Write into a FIFO did
 * before the file tools refused special files), so neither the run's journal nor `process.exit`
 * can finish. Only the second Ctrl-C can end it; the test fails by hanging if it does not.
 */
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GIT_IDENTITY, initFiles, makeProject } from "./project.test-helper.ts";
import { spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

let fake: FakeAnthropic;
const dirs: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Calls `then` once `ready()` holds, checking every 10 ms. */
function when(ready: () => boolean, then: () => void): void {
  const timer = setInterval(() => {
    if (!ready()) return;
    clearInterval(timer);
    then();
  }, 10);
}

describe("a second Ctrl-C", () => {
  it("ends a run that cannot stop by itself, as SIGINT (130)", async () => {
    const cwd = makeProject("my-agent", initFiles("my-agent"));
    const scratch = tempDir("climpt-fifo-");
    dirs.push(cwd, scratch);
    const fifo = path.join(scratch, "nobody-reads");
    execFileSync("mkfifo", [fifo]);
    // Loaded into the CLI process: on SIGUSR2, every I/O pool thread blocks in open() of the FIFO.
    const preload = path.join(scratch, "block-pool.mjs");
    writeFileSync(
      preload,
      `import { open } from "node:fs";\nprocess.on("SIGUSR2", () => { for (let i = 0; i < 4; i++) open(${JSON.stringify(fifo)}, "w", () => {}); process.stderr.write("pool blocked\\n"); });\n`,
    );
    fake.enqueue(reply.hang());
    let stderr = "";
    const outcome = await spawnCli(["run", "my-agent", "--task", "anything"], {
      cwd,
      env: {
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: "test-key",
        NODE_OPTIONS: `--import ${preload}`,
        UV_THREADPOOL_SIZE: "4",
        ...GIT_IDENTITY,
      },
      onSpawn: (child) => {
        child.stderr?.on("data", (chunk: Buffer | string) => {
          stderr += chunk.toString();
        });
        when(
          () => fake.messageRequests().length >= 1,
          () => child.kill("SIGUSR2"),
        );
        when(
          () => stderr.includes("pool blocked"),
          () => child.kill("SIGINT"),
        );
        when(
          () => stderr.includes("Press Ctrl-C again"),
          () => child.kill("SIGINT"),
        );
      },
    });
    expect(outcome.stderr).toContain("Exiting at once");
    expect(outcome.signal).toBe("SIGINT");
  });
});
