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

/** A file of /proc/<pid>, or undefined once the process is gone. */
function procFile(pid: number, name: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${name}`, "utf8");
  } catch {
    return undefined;
  }
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
    // The child blocks on a line of the test's pipe; its parent becomes `sleep 60` by exec, which
    // never reaps. The line is written only once the exec happened: a child that ended before it
    // could be reaped by the shell (a busy machine made that happen), and then there is no zombie.
    const parent = spawn("sh", ["-c", "exec 3<&0; (read line <&3) & echo $!; exec sleep 60"], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    stops.push(() => parent.kill("SIGKILL"));
    let out = "";
    parent.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    await waitFor(() => /^\d+\n/.test(out), { what: "the child's pid" });
    const zombie = Number(out.trim());
    await waitFor(() => procFile(parent.pid as number, "comm") === "sleep\n", {
      what: "the parent to exec sleep",
    });
    parent.stdin.write("end\n");
    await waitFor(() => /\) Z /.test(procFile(zombie, "stat") ?? ""), {
      what: "the child to be a zombie",
    });
    await leaveLock(store, dir, zombie);
    const taken = await store.lock(key);
    expect(taken).not.toBeNull();
    await taken?.release();
  });
});
