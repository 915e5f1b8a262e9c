import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SandboxManager as SandboxManagerApi } from "@anthropic-ai/sandbox-runtime";
import { bindToProcessLife, type ReleaseBinding } from "../lifetime/process-life.ts";

/**
 * Binds to this process's life what the sandbox runtime left running and on disk when it
 * started: its `socat` bridges (children of this process, which it stops in `reset()` and its
 * exit hook, neither of which runs after `kill -9`) and the unix sockets they and its proxy
 * listen on in the temporary folder. The runtime names none of its processes, so the bridges
 * are this process's `socat` children alive right after it started; the sockets are the
 * paths it reports and the `srt-*-<pid>-*` ones its proxy makes under this process's pid.
 * Returns the release to call once the runtime has been reset (it removed them itself).
 */
export function bindRuntimeHelpers(manager: typeof SandboxManagerApi): ReleaseBinding {
  const releases: ReleaseBinding[] = [];
  for (const pid of childrenNamed("socat")) {
    releases.push(bindToProcessLife({ kind: "process", pid }));
  }
  const sockets = new Set<string>();
  for (const socket of [manager.getLinuxHttpSocketPath(), manager.getLinuxSocksSocketPath()]) {
    if (socket !== undefined) sockets.add(socket);
  }
  for (const socket of ownSocketsIn(tmpdir())) sockets.add(socket);
  for (const socket of sockets) releases.push(bindToProcessLife({ kind: "path", path: socket }));
  return () => {
    for (const release of releases) release();
  };
}

/**
 * This process's children whose command name is `name`: the main thread's children list (Linux,
 * one small file; the runtime spawns from the main thread), else nothing.
 */
function childrenNamed(name: string): number[] {
  let children: string[];
  try {
    children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter((word) => word !== "");
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const pid of children) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === name) found.push(Number(pid));
    } catch {
      // gone while we looked
    }
  }
  return found;
}

/** The runtime's proxy sockets of this process: `srt-mux-<pid>-*.sock`, `srt-tt-<pid>-*.sock`. */
function ownSocketsIn(dir: string): string[] {
  const prefixes = [`srt-mux-${process.pid}-`, `srt-tt-${process.pid}-`];
  try {
    return readdirSync(dir)
      .filter((name) => prefixes.some((prefix) => name.startsWith(prefix)))
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}
