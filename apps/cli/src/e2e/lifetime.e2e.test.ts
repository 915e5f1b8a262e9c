/**
 * A sandboxed command dies with climpt, `kill -9` included, and leaves nothing behind. The
 * model's Bash call marks that it started, sleeps, then would write a canary and commit it;
 * climpt is killed with SIGKILL while it sleeps. No process of the command survives (none has
 * the command's token or the run's private TMPDIR in its arguments: bubblewrap, the sandboxed
 * shell, the sleep, the runtime's socat bridge), the canary is never written, nothing is
 * committed, and no `climpt-sandbox-*` folder nor any socket of the runtime is left in TMPDIR.
 *
 * Nothing here waits a fixed time: the kill follows the command's own mark, and the checks come
 * once no process of the run is left, after which nothing could still write the canary.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { type FakeAnthropic, reply, startFakeAnthropic, waitUntil } from "@climpt/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { GIT_IDENTITY, git, initFiles, makeProject } from "./project.test-helper.ts";
import { spawnCli, stopRunningClis, tempDir } from "./spawn-cli.test-helper.ts";

const fakes: FakeAnthropic[] = [];
const dirs: string[] = [];
afterEach(stopRunningClis);
afterAll(async () => {
  await Promise.all(fakes.map((fake) => fake.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Processes (pid → arguments) whose arguments contain `text`; zombies have none. */
function processesWith(text: string): Map<number, string> {
  const found = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (args.includes(text)) found.set(Number(entry), args.replaceAll("\0", " ").slice(0, 200));
    } catch {
      // gone while we looked
    }
  }
  return found;
}

describe("a sandboxed command and climpt's kill -9", () => {
  it("dies with climpt: no process, no canary, no commit, no folder left", async () => {
    const cwd = makeProject("my-agent", initFiles("my-agent"));
    const tmp = tempDir("lifetime-tmp");
    dirs.push(cwd, tmp);
    const fake = await startFakeAnthropic();
    fakes.push(fake);
    const token = `lifetime-${randomUUID()}`;
    const command = `touch started-${token}; sleep 5; echo late > canary-${token}; git add -A; git commit -qm ${token}`;
    fake.enqueue(reply.toolUse({ name: "Bash", input: { command } }), reply.hang());
    const commitsBefore = git(cwd, "rev-list", "--count", "HEAD");

    let climpt = 0;
    const outcome = await spawnCli(["run", "my-agent", "--task", "t"], {
      cwd,
      env: {
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: "test-key",
        TMPDIR: tmp,
        ...GIT_IDENTITY,
      },
      onSpawn: (child) => {
        climpt = child.pid ?? 0;
        // Killed once the command has started inside the sandbox, never on a guess of when.
        const timer = setInterval(() => {
          if (!existsSync(path.join(cwd, `started-${token}`))) return;
          clearInterval(timer);
          child.kill("SIGKILL");
        }, 10);
        child.on("close", () => clearInterval(timer));
      },
    });
    expect(outcome.signal, outcome.stderr).toBe("SIGKILL");

    // Everything of the run names the token (the sandboxed shell) or the private TMPDIR
    // (bubblewrap's mounts, the runtime's socat bridge), and the watchdog names climpt's pid.
    const left = (): Map<number, string> =>
      new Map([
        ...processesWith(token),
        ...processesWith(tmp),
        ...processesWith(`climpt-lifetime-watchdog\0${climpt}\0`),
      ]);
    const gone = await waitUntil(() => left().size === 0, 120_000);
    expect(gone, [...left().values()].join("\n")).toBe(true);

    expect(existsSync(path.join(cwd, `canary-${token}`))).toBe(false);
    expect(git(cwd, "rev-list", "--count", "HEAD")).toBe(commitsBefore);
    expect(git(cwd, "log", "--format=%s")).not.toContain(token);
    const leftovers = readdirSync(tmp).filter((name) =>
      /^(climpt-sandbox|claude-http|claude-socks|srt-)/.test(name),
    );
    expect(leftovers).toEqual([]);
  });
});
