/**
 * The lifetime watchdog does its one job after its parent is gone, however the parent went: here
 * the parent is a small Node process that starts the watchdog exactly as process-life.ts does
 * (`node -e <source>`, its own session, a pipe from the parent) and binds a process group, a
 * process and a folder, then is killed with SIGKILL, which no handler of its own survives.
 * The group and the process die and the folder goes; a binding the parent released stays alone.
 * Nothing but the watchdog could do it: the parent never runs again.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { waitUntil } from "@climpt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { useTempDirs } from "../tools.test-helper.ts";
import { WATCHDOG_MARKER, WATCHDOG_SOURCE } from "./watchdog-source.ts";

/** What the parent reports once everything is bound. */
interface Bound {
  readonly watchdog: number;
  readonly group: number;
  readonly lone: number;
  readonly released: number;
}

/**
 * The parent: spawns the watchdog the way process-life.ts does, then the things to bind, then
 * sends the registrations (one of them dropped again) and prints the pids. Plain JavaScript, so
 * it runs without the package being built.
 */
const PARENT = String.raw`
const { spawn } = require("child_process");
const fs = require("fs");
const [source, marker, folder] = process.argv.slice(1);
const watchdog = spawn(process.execPath, ["-e", source, marker, String(process.pid)], {
  detached: true, stdio: ["pipe", "ignore", "ignore"], env: {}, cwd: "/",
});
const startOf = (pid) => {
  const stat = fs.readFileSync("/proc/" + pid + "/stat", "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
};
const send = (op, kind, id) =>
  watchdog.stdin.write(JSON.stringify({ op, kind, id, start: kind === "path" ? undefined : startOf(id) }) + "\n");
// A group whose leader starts a child of its own, as sh starts a pipeline.
const group = spawn("sh", ["-c", "sleep 600 & sleep 600"], { detached: true, stdio: "ignore" });
const lone = spawn("sleep", ["600"], { stdio: "ignore" });
const released = spawn("sleep", ["600"], { detached: true, stdio: "ignore" });
setTimeout(() => {
  send("add", "group", group.pid);
  send("add", "process", lone.pid);
  send("add", "path", folder);
  send("add", "group", released.pid);
  send("drop", "group", released.pid);
  console.log(JSON.stringify({ watchdog: watchdog.pid, group: group.pid, lone: lone.pid, released: released.pid }));
}, 100);
setInterval(() => {}, 1000);
`;

/** Every process (by pid) of a process group, from /proc. */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirProc()) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // A zombie no longer runs: what is left of a killed process until its parent reaps it.
      if (Number(fields[2]) === pgid && fields[0] !== "Z") members.push(Number(entry));
    } catch {
      // gone
    }
  }
  return members;
}

function readdirProc(): string[] {
  return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
}

function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Groups (negative) and processes this test started, killed after it whatever happened. */
const started: number[] = [];
afterEach(() => {
  for (const target of started.splice(0)) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // already gone: what the test expects
    }
  }
});

describe("the lifetime watchdog", () => {
  const tempDir = useTempDirs();

  it("kills the bound group and process and removes the bound folder after a kill -9 of its parent", async () => {
    const folder = path.join(tempDir(), "made-for-one-command");
    mkdirSync(path.join(folder, "home"), { recursive: true });
    writeFileSync(path.join(folder, "home", "file"), "x");
    const parent: ChildProcess = spawn(
      process.execPath,
      ["-e", PARENT, WATCHDOG_SOURCE, WATCHDOG_MARKER, folder],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    parent.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    expect(await waitUntil(() => output.includes("\n"))).toBe(true);
    const bound = JSON.parse(output) as Bound;
    started.push(-bound.group, -bound.released, bound.lone, bound.watchdog);
    expect(groupMembers(bound.group)).toHaveLength(3);

    parent.kill("SIGKILL");

    expect(await waitUntil(() => !running(bound.watchdog))).toBe(true);
    expect(groupMembers(bound.group)).toEqual([]);
    expect(running(bound.lone)).toBe(false);
    expect(existsSync(folder)).toBe(false);
    // Released before the parent died: not the watchdog's any more.
    expect(running(bound.released)).toBe(true);
  });
});
