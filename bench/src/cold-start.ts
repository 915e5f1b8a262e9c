/**
 * Row 3: cold start of the CLI, `climpt validate examples/agents/fix-bug`, as a user starts it:
 * a new `node` process. Wall time is the median of several spawns. Peak RSS comes from
 * `/usr/bin/time -v` when it exists (GNU time reads the child's rusage); where it does not
 * (CI images with only Node and npm), a preloaded hook (`node --import data:…`) makes the
 * process report its own `process.resourceUsage().maxRSS` (the same getrusage figure) at exit.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { median } from "./stats.ts";

export interface ColdStart {
  readonly wallMs: number;
  readonly peakRssMb: number;
}

export type RssMethod = "/usr/bin/time -v" | "maxRSS hook";

const GNU_TIME = "/usr/bin/time";
const MARKER = "CLIMPT_BENCH_MAXRSS_KB=";
const RSS_HOOK = `data:text/javascript,process.on("exit",()=>process.stderr.write("\\n${MARKER}"+process.resourceUsage().maxRSS+"\\n"))`;

/** `/usr/bin/time -v` when present and working, else the hook (forced with BENCH_RSS=hook). */
export function rssMethod(): RssMethod {
  if (process.env.BENCH_RSS === "hook" || !existsSync(GNU_TIME)) return "maxRSS hook";
  const probe = spawnSync(GNU_TIME, ["-v", process.execPath, "-e", "0"], { encoding: "utf8" });
  return probe.status === 0 && /Maximum resident set size/.test(probe.stderr)
    ? "/usr/bin/time -v"
    : "maxRSS hook";
}

function peakRssKb(args: readonly string[], cwd: string, method: RssMethod): number {
  if (method === "/usr/bin/time -v") {
    const result = spawnSync(GNU_TIME, ["-v", process.execPath, ...args], {
      cwd,
      encoding: "utf8",
    });
    const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr);
    if (match === null) throw new Error(`no RSS from ${GNU_TIME}: ${result.stderr.slice(-300)}`);
    return Number(match[1]);
  }
  const result = spawnSync(process.execPath, ["--import", RSS_HOOK, ...args], {
    cwd,
    encoding: "utf8",
  });
  const match = new RegExp(`${MARKER}(\\d+)`).exec(result.stderr);
  if (match === null) throw new Error(`no RSS from the hook: ${result.stderr.slice(-300)}`);
  return Number(match[1]);
}

/** Spawns `node <args>` `runs` times (after one warm-up for the file cache). */
export function measureColdStart(
  args: readonly string[],
  cwd: string,
  method: RssMethod,
  runs = 15,
): ColdStart {
  const walls: number[] = [];
  const rss: number[] = [];
  for (let run = 0; run <= runs; run++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { cwd, stdio: "ignore" });
    const wall = performance.now() - started;
    if (result.status !== 0) {
      throw new Error(`node ${args.join(" ")} exited with ${result.status ?? result.signal}`);
    }
    if (run === 0) continue;
    walls.push(wall);
    if (run <= 5) rss.push(peakRssKb(args, cwd, method));
  }
  return { wallMs: median(walls), peakRssMb: median(rss) / 1024 };
}
