import { constants, promises as fs, openSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import {
  type BoundaryRequest,
  type BoundaryRequestLog,
  describeBoundaryRequest,
} from "../boundary-request.ts";
import type { WorkingRoot } from "../confine-path.ts";
import type { GithubAccess } from "../github-access.ts";
import { loadExeca } from "../lazy-modules.ts";
import { hostGhEnv } from "../run-repository.ts";
import { replyThroughFifo } from "./broker-channel.ts";
import { type GhRequest, judgeGhRequest } from "./gh-judge.ts";
import type { GhStepKind } from "./gh-policy.ts";

const GH_TIMEOUT_MS = 60_000;
const MAX_REQUEST_BYTES = 2 * 1024 * 1024;
const MAX_GH_OUTPUT_BYTES = 4 * 1024 * 1024;
/** Requests one sandboxed command may make; a loop calling gh forever gets refusals after this. */
const MAX_REQUESTS = 500;
const ID_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;

export interface GhBrokerOptions {
  /** The broker directory: made by the caller, bound writable into the sandbox. */
  readonly dir: string;
  readonly root: WorkingRoot;
  readonly stepKind: GhStepKind;
  /** The real gh (a name on the PATH of `env`, or a path). */
  readonly ghCommand: string;
  /** The environment of the real gh: credentials included, model credentials not. */
  readonly env: Readonly<Record<string, string>>;
  readonly boundary: BoundaryRequestLog;
  /**
   * What the run's writes may touch (its own issue and pull request, what agent.json declares)
   * and the run's repository. Default: none (`NO_GITHUB_ACCESS`), so every call that needs a
   * repository, every write among them, is refused.
   */
  readonly github?: GithubAccess;
  /**
   * Folders besides the working directory whose files `--body-file FILE` may name: the
   * command's private `$TMPDIR`. The broker reads the file itself (see `readBodyFile`).
   */
  readonly readableDirs?: readonly string[];
}

/** One request the broker answered, for the Bash tool's result and for tests. */
export interface GhBrokerRecord {
  readonly argv: readonly string[];
  readonly outcome: "ran" | "refused" | "recorded" | "failed";
  readonly exitCode: number;
  /** The repository a call that ran acted on, when it acts on one (lower-case `owner/repo`). */
  readonly repository?: string;
}

export interface GhBroker {
  readonly records: readonly GhBrokerRecord[];
  /** Stops listening and ends calls in flight; the caller then removes the directory. */
  close(): Promise<void>;
}

interface Answer {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/**
 * Starts the broker of one sandboxed command: it reads request ids from the `ring` FIFO, decides
 * each request on its argument vector (`decideGh`), runs the real gh outside the sandbox for
 * those it allows, records close requests for the boundary hook, and answers on the request's
 * reply FIFO. Files the sandbox wrote are opened without following links and checked for kind
 * and size before they are read.
 */
export async function startGhBroker(options: GhBrokerOptions): Promise<GhBroker> {
  const ring = path.join(options.dir, "ring");
  const { execa } = await loadExeca();
  const made = await execa("mkfifo", ["-m", "600", ring], { reject: false });
  if (made.exitCode !== 0) throw new Error(`mkfifo ${ring} failed: ${made.stderr}`);
  // Read-write: opening never waits for a writer, and the FIFO never reports end of file.
  const socket = new net.Socket({
    fd: openSync(ring, constants.O_RDWR | constants.O_NONBLOCK),
    readable: true,
    writable: false,
  });
  socket.unref();
  const controller = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const records: GhBrokerRecord[] = [];
  let requests = 0;
  let pending = "";

  socket.on("data", (chunk: Buffer) => {
    pending += chunk.toString("latin1");
    let end = pending.indexOf("\n");
    while (end >= 0) {
      const id = pending.slice(0, end);
      pending = pending.slice(end + 1);
      end = pending.indexOf("\n");
      if (!ID_PATTERN.test(id)) continue;
      requests++;
      const work = serve(id, requests > MAX_REQUESTS).finally(() => inFlight.delete(work));
      inFlight.add(work);
    }
    if (pending.length > 1000) pending = "";
  });
  socket.on("error", () => undefined);

  const serve = async (id: string, overLimit: boolean): Promise<void> => {
    const requestPath = path.join(options.dir, `${id}.json`);
    const request = await readRequest(requestPath);
    await fs.unlink(requestPath).catch(() => undefined);
    let answer: Answer;
    let outcome: GhBrokerRecord["outcome"];
    let repository: string | undefined;
    if (request === undefined) {
      answer = text("", "the request could not be read.\n", 4);
      outcome = "failed";
    } else if (overLimit) {
      answer = text("", `more than ${MAX_REQUESTS} gh calls in one command.\n`, 4);
      outcome = "refused";
    } else {
      ({ answer, outcome, repository } = await decideAndRun(request, options, controller.signal));
    }
    records.push({
      argv: request?.argv ?? [],
      outcome,
      exitCode: answer.exitCode,
      ...(repository === undefined ? {} : { repository }),
    });
    await replyThroughFifo(path.join(options.dir, `${id}.reply`), answer);
  };

  return {
    records,
    async close() {
      socket.destroy();
      controller.abort();
      await Promise.allSettled([...inFlight]);
    },
  };
}

async function readRequest(file: string): Promise<GhRequest | undefined> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > MAX_REQUEST_BYTES) return undefined;
    const parsed: unknown = JSON.parse(await handle.readFile("utf8"));
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { argv, cwd, stdin, stdinRead } = parsed as Record<string, unknown>;
    if (!Array.isArray(argv) || !argv.every((arg) => typeof arg === "string")) return undefined;
    if (typeof cwd !== "string" || typeof stdin !== "string") return undefined;
    return {
      argv: argv as string[],
      cwd,
      stdin: Buffer.from(stdin, "base64"),
      stdinRead: stdinRead === true,
    };
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

function text(stdout: string, stderr: string, exitCode: number): Answer {
  return {
    stdout: Buffer.from(stdout).toString("base64"),
    stderr: Buffer.from(stderr).toString("base64"),
    exitCode,
  };
}

type Outcome = { answer: Answer; outcome: GhBrokerRecord["outcome"]; repository?: string };

function refused(reason: string): Outcome {
  return {
    answer: text("", `gh: refused by climpt's GitHub broker: ${reason}\n`, 1),
    outcome: "refused",
  };
}

function recorded(request: BoundaryRequest): Outcome {
  return {
    answer: text(
      `Recorded for the boundary hook: ${describeBoundaryRequest(request)}. Nothing has changed on GitHub yet; the boundary hook does it once, after this closure step returns \`closing\` and validation passes.\n`,
      "",
      0,
    ),
    outcome: "recorded",
  };
}

async function decideAndRun(
  request: GhRequest,
  options: GhBrokerOptions,
  signal: AbortSignal,
): Promise<Outcome> {
  const judged = await judgeGhRequest(request, options);
  if (judged.kind === "refused") return refused(judged.reason);
  if (judged.kind === "recorded") return recorded(judged.request);
  // Always in the working directory's root, never where the command was: gh reads the git
  // remotes and the branch of the folder it runs in, and the model chooses (and can make) that
  // folder. The repository is the call's or the run's anyway (`GH_REPO`, judgeGhRequest).
  const { execa } = await loadExeca();
  const result = await execa(options.ghCommand, [...judged.argv], {
    cwd: options.root.real,
    env: { ...hostGhEnv(options.env), ...judged.env },
    extendEnv: false,
    input: judged.input,
    encoding: "buffer",
    reject: false,
    timeout: GH_TIMEOUT_MS,
    cancelSignal: signal,
    maxBuffer: MAX_GH_OUTPUT_BYTES,
    stripFinalNewline: false,
  });
  if (result.exitCode === undefined) {
    return {
      answer: text("", `gh: could not run the real gh (${result.shortMessage}).\n`, 4),
      outcome: "failed",
    };
  }
  const stderr = Buffer.concat([Buffer.from(judged.note ?? ""), Buffer.from(result.stderr)]);
  return {
    answer: {
      stdout: Buffer.from(result.stdout).toString("base64"),
      stderr: stderr.toString("base64"),
      exitCode: result.exitCode,
    },
    outcome: "ran",
    ...(judged.repository === undefined ? {} : { repository: judged.repository }),
  };
}
