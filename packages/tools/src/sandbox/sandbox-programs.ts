import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/**
 * Finding the programs the sandbox needs, and telling a missing program from a slow lookup.
 *
 * The sandbox runtime looks its programs up by running `which` with a one-second bound
 * (spawnSync, blocking): on a loaded machine starting `which` can take longer, the lookup then
 * returns nothing, and the runtime reports "ripgrep (rg) not found; bubblewrap (bwrap) not
 * installed" for programs that are in /usr/bin. This module looks them up on PATH itself (a
 * stat per PATH entry, no process, no time bound), so "not installed" is said only of a program
 * that is not there, and the runtime is given bubblewrap's and socat's paths so it runs no
 * lookup for them; for what the runtime still looks up itself (ripgrep at start, the shell at
 * each wrap) a miss of a program found here is a slow lookup, tried again (`retryLookupMiss`).
 */

/** The programs the sandbox runtime runs: bubblewrap, its socat bridges, ripgrep, the shell. */
export const SANDBOX_PROGRAMS = ["bwrap", "socat", "rg", "sh"] as const;
export type SandboxProgram = (typeof SANDBOX_PROGRAMS)[number];

/** How the runtime names each program when it is missing (its own words, kept for users). */
const MISSING_TEXT: Readonly<Record<SandboxProgram, string>> = {
  bwrap: "bubblewrap (bwrap) not installed",
  socat: "socat not installed",
  rg: "ripgrep (rg) not found",
  sh: "sh not found",
};

/** The first executable regular file named `name` on `pathVariable`, as `which` finds it. */
export function findOnPath(name: string, pathVariable: string): string | undefined {
  for (const dir of pathVariable.split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here, or not executable
    }
  }
  return undefined;
}

export interface SandboxProgramsFound {
  /** Where each program is, for those found. */
  readonly paths: Readonly<Partial<Record<SandboxProgram, string>>>;
  /** The programs not on PATH. */
  readonly missing: readonly SandboxProgram[];
}

/** Each sandbox program on PATH (the current one by default). */
export function locateSandboxPrograms(
  pathVariable: string = process.env.PATH ?? "",
): SandboxProgramsFound {
  const paths: Partial<Record<SandboxProgram, string>> = {};
  const missing: SandboxProgram[] = [];
  for (const name of SANDBOX_PROGRAMS) {
    const found = findOnPath(name, pathVariable);
    if (found === undefined) missing.push(name);
    else paths[name] = found;
  }
  return { paths, missing };
}

/** "bubblewrap (bwrap) not installed; socat not installed" for the missing programs. */
export function missingProgramsText(missing: readonly SandboxProgram[]): string {
  return missing.map((name) => MISSING_TEXT[name]).join("; ");
}

/** What the runtime throws when its own `which` found nothing: "… not found", "not installed". */
const LOOKUP_MISS = /\bnot (?:found|installed)\b/i;

/** How often a runtime step whose lookup missed a present program is tried in all. */
export const LOOKUP_ATTEMPTS = 3;

/**
 * Runs `step` (the runtime's initialize or wrap), again when it fails because the runtime's own
 * lookup missed a program that is on PATH (see above), at most `LOOKUP_ATTEMPTS` times in all.
 * A failure for any other reason, or with a program really missing, is thrown at once. When
 * every attempt missed, the error says the lookup was slow, not that a program is missing.
 */
export async function retryLookupMiss<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      const message = (error as Error | undefined)?.message ?? String(error);
      if (!LOOKUP_MISS.test(message)) throw error;
      const { missing } = locateSandboxPrograms();
      if (missing.length > 0) throw error;
      if (attempt >= LOOKUP_ATTEMPTS) {
        throw new Error(
          `the sandbox runtime's program lookup (\`which\`, bounded to one second) failed ${attempt} times although ${SANDBOX_PROGRAMS.join(", ")} are all on PATH; the machine is too busy to start a process within a second (the runtime said: ${message})`,
          { cause: error },
        );
      }
    }
  }
}
