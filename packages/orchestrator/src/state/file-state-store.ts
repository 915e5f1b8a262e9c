import { existsSync, readFileSync } from "node:fs";
import { mkdir, open, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { ClimptError } from "@climpt/model";
import { ORCHESTRATOR_CODES as C } from "../codes.ts";
import type { IssueKey, IssueLock, IssueRecord, IssueStateStore } from "./issue-record.ts";
import { lockLostError } from "./lock-lost.ts";

/** The default folder, under the repository: `.climpt/orchestrator`. */
export const DEFAULT_STATE_DIR: string = path.join(".climpt", "orchestrator");

function safe(part: string): string {
  return part.replace(/[^A-Za-z0-9._-]+/g, "_");
}

/**
 * Whether the lock's owner still runs. A process killed with SIGKILL stays a zombie until its
 * parent (often init, once its own parent was killed too) reaps it, and signal 0 still reaches a
 * zombie: on Linux its state in /proc says it ended, so a cancelled job's lock is taken over at
 * once rather than whenever the reaping happens.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The state is the field after the command name, which ends at the last ")".
    const state = stat.charAt(stat.lastIndexOf(")") + 2);
    return state !== "Z" && state !== "X";
  } catch {
    // No /proc (another system), or the process ended between the two looks.
    return existsSync(`/proc/${pid}`) || !existsSync("/proc/self");
  }
}

/**
 * Issue records as JSON files, one per issue: `<dir>/<workflow>/<repo>/issue-<n>.json`, written
 * through a temporary file and a rename so a crash never leaves half a record. The folder ignores
 * itself (a `.gitignore` holding `*`), so a git-clean validator never sees it. A lock is a file
 * created exclusively, holding the owner's pid and host; a lock whose process on this host is
 * gone is taken over.
 */
export class FileIssueStateStore implements IssueStateStore {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  #file(key: IssueKey, suffix: string): string {
    return path.join(
      this.#dir,
      safe(key.workflowId),
      safe(key.repo),
      `issue-${key.issue}${suffix}`,
    );
  }

  async #ensure(file: string): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    const ignore = path.join(this.#dir, ".gitignore");
    if (!existsSync(ignore)) await writeFile(ignore, "*\n");
  }

  async read(key: IssueKey): Promise<IssueRecord | null> {
    const file = this.#file(key, ".json");
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw unreadable(file, error);
    }
    try {
      return JSON.parse(text) as IssueRecord;
    } catch (error) {
      throw unreadable(file, error);
    }
  }

  async write(record: IssueRecord, held?: IssueLock): Promise<void> {
    if (held?.lost.aborted) throw lockLostError(record.issue, String(held.lost.reason));
    const file = this.#file(record, ".json");
    await this.#ensure(file);
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`);
    await rename(temporary, file);
  }

  async lock(key: IssueKey): Promise<IssueLock | null> {
    const file = this.#file(key, ".lock");
    await this.#ensure(file);
    const owner = JSON.stringify({ pid: process.pid, host: hostname() });
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await open(file, "wx");
        await handle.writeFile(owner);
        await handle.close();
        // A file lock has no lease: it is lost only if its file is removed or taken over (by
        // hand, or by an orchestrator that took this process for dead), which `confirm` sees.
        const lost = new AbortController();
        return {
          lost: lost.signal,
          confirm: async () => {
            if (lost.signal.aborted) return false;
            const holder = await readFile(file, "utf8").catch(() => null);
            if (holder === owner) return true;
            lost.abort("its lock file was removed or taken over");
            return false;
          },
          release: async () => {
            if (lost.signal.aborted) return;
            await unlink(file).catch(() => undefined);
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const holder = await readFile(file, "utf8").catch(() => "");
        let stale = false;
        try {
          const parsed = JSON.parse(holder) as { pid: number; host: string };
          stale = parsed.host === hostname() && !isAlive(parsed.pid);
        } catch {
          // A lock file cut off while it was written: its writer died.
          stale = true;
        }
        if (!stale) return null;
        await unlink(file).catch(() => undefined);
      }
    }
    return null;
  }
}

function unreadable(file: string, cause: unknown): ClimptError {
  return new ClimptError({
    code: C.stateUnreadable,
    message: `The orchestrator's record ${file} cannot be read: ${(cause as Error).message}.`,
    file,
    hint: "Delete the file: the issue's labels still say its phase; only its cycle count and an unfinished dispatch are forgotten.",
    cause,
  });
}
