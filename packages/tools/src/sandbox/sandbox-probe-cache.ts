/**
 * A successful sandbox probe, remembered across processes.
 *
 * Every run whose steps can use Bash proves before its first model call that the sandbox starts
 * here (docs/design.md#tools-and-their-boundary). The proof is expensive: the sandbox library and
 * its process helpers load (some 150 modules), seven `which` lookups, a file scan, two proxies and
 * a bubblewrap start — most of the time `climpt run` spent before its first model request. Whether
 * the sandbox starts depends on the machine, not on the run, so a success is written to the user's
 * cache directory with a fingerprint of everything it depends on: the kernel, the user, the
 * user-namespace settings, each program the library needs (found on PATH, with its size and
 * modification time) and the library itself. A later run with the same fingerprint, within a day,
 * skips the probe. Anything that changes (a new bubblewrap, PATH without it, a sysctl turned off)
 * changes the fingerprint and the probe runs again.
 *
 * Only successes are remembered: a failure is always re-checked, so fixing the machine takes
 * effect at once. A remembered success that has become wrong costs nothing in safety: the first
 * Bash call's sandbox then fails to start and the call fails with bubblewrap's error; no command
 * ever runs outside the sandbox.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir, release } from "node:os";
import path from "node:path";
import { findOnPath, SANDBOX_PROGRAMS } from "./sandbox-programs.ts";

/** How long a remembered success counts. */
const REMEMBER_MS = 24 * 60 * 60 * 1000;

/** Kernel switches that decide whether an unprivileged user may create namespaces. */
const USERNS_SETTINGS = [
  "/proc/sys/kernel/unprivileged_userns_clone",
  "/proc/sys/user/max_user_namespaces",
  "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
] as const;

/**
 * How many fingerprints the file keeps. More than one: two climpt installs on one machine (two
 * projects, or worktrees of climpt itself) have different library files, so different
 * fingerprints, and with one entry each run would erase the other's.
 */
const REMEMBER_ENTRIES = 16;

/** The file: when each fingerprint last probed successfully (ms since the epoch). */
interface RememberedProbes {
  readonly successes: Readonly<Record<string, number>>;
}

function readSetting(file: string): string | null {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
}

/** Size and modification time of a file, or null when it is not there. */
function fileIdentity(file: string): string | null {
  try {
    const stat = statSync(file);
    return `${file}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return null;
  }
}

/** The sandbox library's entry file, resolved without loading it. */
function libraryIdentity(): string | null {
  try {
    return fileIdentity(new URL(import.meta.resolve("@anthropic-ai/sandbox-runtime")).pathname);
  } catch {
    return null;
  }
}

/**
 * Everything the probe's success depends on, hashed. Undefined where it cannot be known (no user
 * id on this platform): then nothing is remembered.
 */
export function sandboxFingerprint(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (typeof process.getuid !== "function") return undefined;
  const pathVariable = env.PATH ?? "";
  const parts = [
    process.platform,
    process.arch,
    release(),
    String(process.getuid()),
    ...USERNS_SETTINGS.map(readSetting),
    ...SANDBOX_PROGRAMS.map((name) => {
      const found = findOnPath(name, pathVariable);
      return found === undefined ? `${name}:missing` : fileIdentity(found);
    }),
    libraryIdentity(),
  ];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/** Where the remembered probe lives: `$XDG_CACHE_HOME/climpt`, else `~/.cache/climpt`. */
export function sandboxProbeCacheFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || path.join(homedir(), ".cache");
  return path.join(base, "climpt", "sandbox-probe.json");
}

/** The successes the file holds; none for a missing or damaged file. */
function readSuccesses(file: string): Record<string, number> {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<RememberedProbes> & {
      readonly fingerprint?: unknown;
      readonly checkedAt?: unknown;
    };
    const successes: Record<string, number> = {};
    for (const [fingerprint, checkedAt] of Object.entries(parsed.successes ?? {})) {
      if (typeof checkedAt === "number") successes[fingerprint] = checkedAt;
    }
    // The first format held one success: { fingerprint, checkedAt }.
    if (typeof parsed.fingerprint === "string" && typeof parsed.checkedAt === "number") {
      successes[parsed.fingerprint] ??= parsed.checkedAt;
    }
    return successes;
  } catch {
    return {};
  }
}

const fresh = (checkedAt: number, now: number): boolean =>
  now - checkedAt >= 0 && now - checkedAt < REMEMBER_MS;

/** Whether a success with this fingerprint was recorded less than a day ago. */
export function probeRemembered(
  fingerprint: string,
  file: string,
  now: number = Date.now(),
): boolean {
  const checkedAt = readSuccesses(file)[fingerprint];
  return checkedAt !== undefined && fresh(checkedAt, now);
}

/**
 * Records a success beside the others still fresh (the newest REMEMBER_ENTRIES). Two processes
 * writing at once may lose one entry: that is one more probe later. A cache that cannot be
 * written (read-only home) is only a slower next run.
 */
export function rememberProbe(fingerprint: string, file: string, now: number = Date.now()): void {
  const kept = Object.entries({ ...readSuccesses(file), [fingerprint]: now })
    .filter(([, checkedAt]) => fresh(checkedAt, now))
    .sort((a, b) => b[1] - a[1])
    .slice(0, REMEMBER_ENTRIES);
  const content: RememberedProbes = { successes: Object.fromEntries(kept) };
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, `${JSON.stringify(content)}\n`, { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    // best effort, see above
  }
}
