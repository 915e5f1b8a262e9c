import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { useTempDirs, waitFor } from "@climpt/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { FileIssueStateStore } from "./file-state-store.ts";

const tempDir = useTempDirs(afterAll, "climpt-state-store-");
const key = { repo: "acme/widgets", issue: 7, workflowId: "default" };
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** A lock file of the store's own format naming `pid` on this host, as a killed orchestrator leaves it. */
async function leaveLock(store: FileIssueStateStore, dir: string, pid: number): Promise<void> {
  const held = await store.lock(key);
  await held?.release();
  const file = path.join(dir, "default", "acme_widgets", "issue-7.lock");
  writeFileSync(file, JSON.stringify({ pid, host: hostname() }));
}

describe("FileIssueStateStore's lock", () => {
  it("is not taken from a process that still runs", async () => {
    const dir = tempDir();
    const store = new FileIssueStateStore(dir);
    const sleeper = spawn("sleep", ["60"], { stdio: "ignore" });
    stops.push(() => sleeper.kill("SIGKILL"));
    await leaveLock(store, dir, sleeper.pid as number);
    expect(await store.lock(key)).toBeNull();
  });

  it("is taken over from a killed process that is still a zombie (its parent has not reaped it)", async () => {
    const dir = tempDir();
    const store = new FileIssueStateStore(dir);
    // `sleep 0` ends at once; its parent became `sleep 60` by exec and never reaps it.
    const parent = spawn("sh", ["-c", "sleep 0 & echo $!; exec sleep 60"], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    stops.push(() => parent.kill("SIGKILL"));
    let out = "";
    parent.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    await waitFor(() => /^\d+\n/.test(out), { what: "the child's pid" });
    const zombie = Number(out.trim());
    await waitFor(() => /\) Z /.test(readFileSync(`/proc/${zombie}/stat`, "utf8")), {
      what: "the child to be a zombie",
    });
    await leaveLock(store, dir, zombie);
    const taken = await store.lock(key);
    expect(taken).not.toBeNull();
    await taken?.release();
  });
});
