/**
 * What a process holds that a leak would grow: its child processes and its open file
 * descriptors. Linux: read from /proc; elsewhere `ps` for children and no descriptor count.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";

/** The pids whose parent is this process. */
export function childPids(): number[] {
  if (existsSync("/proc/self/stat")) {
    const children: number[] = [];
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        // pid (comm) state ppid …: comm may hold spaces and parentheses, so split after the last ')'.
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(fields[1]) === process.pid) children.push(Number(entry));
      } catch {
        // The process ended while we looked.
      }
    }
    return children;
  }
  const out = execFileSync("ps", ["-o", "pid=", "--ppid", String(process.pid)], {
    encoding: "utf8",
  });
  return out
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
}

/** What each open descriptor points at (`socket:[…]`, a path, `anon_inode:[eventfd]`, …). */
export function openFdTargets(): string[] {
  try {
    return readdirSync("/proc/self/fd").map((fd) => {
      try {
        return `${fd} → ${readlinkSync(`/proc/self/fd/${fd}`)}`;
      } catch {
        return `${fd} → ?`;
      }
    });
  } catch {
    return [];
  }
}

/** Open file descriptors of this process, or undefined where /proc/self/fd does not exist. */
export function openFdCount(): number | undefined {
  try {
    return readdirSync("/proc/self/fd").length;
  } catch {
    return undefined;
  }
}
