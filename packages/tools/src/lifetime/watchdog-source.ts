/**
 * The program of the lifetime watchdog (process-life.ts), run as `node -e <source>` in a
 * process of its own. It reads registrations from its stdin, a pipe whose other end only the
 * process that started it holds; when that pipe ends — the parent exited, normally or by
 * `kill -9` — it kills what is still registered and removes the registered paths, then exits.
 *
 * Its arguments (after the source) are a marker and the parent's pid, for `ps` and for tests;
 * it reads neither.
 *
 * One JSON object per line: `{"op":"add"|"drop","kind":"group"|"process"|"path","id":…}`, with
 * `start` (the process's start time in clock ticks, from /proc/<pid>/stat) for groups and
 * processes, so a pid the kernel has since given to another process is never signalled.
 *
 * Plain CommonJS with no imports but Node's own, so it starts in a few tens of milliseconds and
 * needs nothing of the package on disk. It ignores the terminal's signals: it runs in a session
 * of its own, and it must outlive its parent to do its one job.
 */
/** The watchdog's first argument after its source: what names it in a process list. */
export const WATCHDOG_MARKER = "climpt-lifetime-watchdog";

export const WATCHDOG_SOURCE: string = String.raw`
"use strict"; // climpt lifetime watchdog
const fs = require("fs");
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]) process.on(signal, () => {});
const held = { group: new Map(), process: new Map(), path: new Map() };
function startOf(pid) {
  try {
    const stat = fs.readFileSync("/proc/" + pid + "/stat", "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}
function handle(line) {
  let message;
  try { message = JSON.parse(line); } catch { return; }
  const table = held[message && message.kind];
  if (table === undefined) return;
  const key = String(message.id);
  const entry = table.get(key);
  if (message.op === "add") table.set(key, { count: (entry ? entry.count : 0) + 1, start: message.start, id: message.id });
  else if (message.op === "drop" && entry) {
    if (entry.count <= 1) table.delete(key);
    else entry.count -= 1;
  }
}
let reaped = false;
function reap() {
  if (reaped) return;
  reaped = true;
  for (const entry of held.group.values()) {
    // A group outlives its leader, and Linux gives a pid that is still some group's id to no
    // new process: while the group has members the id is ours. Only a leader that is alive with
    // another start time is another process, whose group is not ours.
    const start = startOf(entry.id);
    if (start !== undefined && entry.start !== undefined && start !== entry.start) continue;
    try { process.kill(-entry.id, "SIGKILL"); } catch {}
  }
  for (const entry of held.process.values()) {
    if (entry.start === undefined || startOf(entry.id) !== entry.start) continue;
    try { process.kill(entry.id, "SIGKILL"); } catch {}
  }
  for (const entry of held.path.values()) {
    try { fs.rmSync(entry.id, { recursive: true, force: true }); } catch {}
  }
  process.exit(0);
}
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n")) {
    handle(pending.slice(0, end));
    pending = pending.slice(end + 1);
  }
});
process.stdin.on("end", reap);
process.stdin.on("close", reap);
process.stdin.on("error", reap);
`;
