import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
} from "node:fs";
import * as path from "node:path";
import { listAgents, loadAgent } from "@climpt/registry-schema";

export interface ProjectLocation {
  /** The project: journals live under it (`<cwd>/<agent logging.directory>`). */
  readonly cwd: string;
  /** The folder of agent folders (default `<cwd>/.agent`). */
  readonly agentDir?: string;
}

export interface JournalFile {
  readonly runId: string;
  readonly path: string;
}

/**
 * Folders that hold journals by default, for runs of agents that do not live in the project's
 * `.agent/` (the demo runs `examples/agents/fix-bug` on a copy of the sample repository): the
 * gate-dialect examples' `tmp/climpt/logs/<agent>` and the runner's default `tmp/logs/agents/<agent>`.
 */
const DEFAULT_ROOTS = ["tmp/climpt/logs", "tmp/logs/agents"];

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Whether a file starts like a journal: its first line is a run_start event. */
export function looksLikeJournal(file: string): boolean {
  let fd: number | undefined;
  try {
    // Without blocking, and only a regular file: a FIFO named *.jsonl in a log folder would
    // otherwise hold `climpt view` until some writer opened it.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    if (!fstatSync(fd).isFile()) return false;
    const buffer = Buffer.alloc(512);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, read).toString("utf8");
    return /^\{[^\n]*"type"\s*:\s*"run_start"/.test(head) || /^\{"type":"run_start"/.test(head);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function journalsIn(dir: string): JournalFile[] {
  if (!isDirectory(dir)) return [];
  const found: JournalFile[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".jsonl")) continue;
    const file = path.join(dir, name);
    if (looksLikeJournal(file)) found.push({ runId: name.slice(0, -".jsonl".length), path: file });
  }
  return found;
}

/** The logging folder an agent folder declares, even when the rest of the agent does not load. */
async function loggingDirectory(agentDir: string): Promise<string | null> {
  const loaded = await loadAgent(agentDir);
  return loaded.ok ? loaded.value.agent.logging.directory : null;
}

/**
 * The folders where the project's journals are: each agent's `logging.directory` under `cwd`
 * (agents under `.agent/`, or `agentDir`), and the default log folders with one folder per agent.
 */
export async function journalFolders(location: ProjectLocation): Promise<string[]> {
  const folders: string[] = [];
  const agents = await listAgents(location);
  for (const agent of agents) {
    const directory = await loggingDirectory(agent.dir);
    if (directory !== null) folders.push(path.resolve(location.cwd, directory));
  }
  for (const root of DEFAULT_ROOTS) {
    const dir = path.resolve(location.cwd, root);
    if (!isDirectory(dir)) continue;
    folders.push(dir);
    for (const entry of readdirSync(dir)) {
      const sub = path.join(dir, entry);
      if (isDirectory(sub)) folders.push(sub);
    }
  }
  const unique = new Map<string, string>();
  for (const folder of folders) {
    if (!existsSync(folder)) continue;
    const real = realpathSync(folder);
    if (!unique.has(real)) unique.set(real, folder);
  }
  return [...unique.values()];
}

/** Every journal of the project, newest run first (run ids sort by start time). */
export function journalsInFolders(folders: readonly string[]): JournalFile[] {
  const byPath = new Map<string, JournalFile>();
  for (const folder of folders) {
    for (const journal of journalsIn(folder)) byPath.set(realpathSync(journal.path), journal);
  }
  return [...byPath.values()].sort((a, b) => b.runId.localeCompare(a.runId));
}

export async function discoverJournals(location: ProjectLocation): Promise<JournalFile[]> {
  return journalsInFolders(await journalFolders(location));
}
