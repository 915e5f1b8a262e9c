import { closeSync, constants, promises as fs, fstatSync, openSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { resetStatBuffer } from "@climpt/host-git";
import { loadExeca } from "../lazy-modules.ts";

/**
 * The host side of a broker's channel with its shim inside the sandbox (the sandbox blocks unix
 * sockets, so the channel is FIFOs and files in a directory bound writable inside):
 *
 * 1. the shim writes `<id>.json` (one JSON object) and makes the FIFO `<id>.reply`, which it
 *    opens read-write (so opening never blocks and end of file never comes early);
 * 2. it writes `<id>\n` to the FIFO `ring` (one short write: atomic among concurrent shims);
 * 3. the broker answers one JSON line `{ stdout, stderr, exitCode }` (base64) on `<id>.reply`.
 *
 * Request files are opened without following links, checked for kind and size, and removed once
 * read. Everything in the directory was written by the sandbox: the handler must treat the
 * request as the model's.
 */

/** The answer to one request: output bytes base64-encoded, and the exit code. */
export interface BrokerAnswer {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export interface BrokerChannelOptions {
  /** The broker directory: made by the caller, bound writable into the sandbox. */
  readonly dir: string;
  /** The largest request file read. */
  readonly maxRequestBytes: number;
  /** Requests one sandboxed command may make; later ones get `overLimit`. */
  readonly maxRequests: number;
  /**
   * Answers one request (undefined: it could not be read). `signal` fires when the channel
   * closes.
   */
  serve(
    request: Readonly<Record<string, unknown>> | undefined,
    overLimit: boolean,
    signal: AbortSignal,
  ): Promise<BrokerAnswer>;
}

export interface BrokerChannel {
  /** Stops listening, aborts requests in flight and waits for them. */
  close(): Promise<void>;
}

const ID_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;

/** An answer made of text. */
export function textAnswer(stdout: string, stderr: string, exitCode: number): BrokerAnswer {
  return {
    stdout: Buffer.from(stdout).toString("base64"),
    stderr: Buffer.from(stderr).toString("base64"),
    exitCode,
  };
}

/** Makes the ring FIFO and starts answering requests. */
export async function openBrokerChannel(options: BrokerChannelOptions): Promise<BrokerChannel> {
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
  let requests = 0;
  let pending = "";

  const serve = async (id: string, overLimit: boolean): Promise<void> => {
    const requestPath = path.join(options.dir, `${id}.json`);
    const request = await readRequest(requestPath, options.maxRequestBytes);
    await fs.unlink(requestPath).catch(() => undefined);
    let answer: BrokerAnswer;
    try {
      answer = await options.serve(request, overLimit, controller.signal);
    } catch (error) {
      answer = textAnswer("", `the broker failed: ${(error as Error).message}\n`, 4);
    }
    await replyThroughFifo(path.join(options.dir, `${id}.reply`), answer);
  };

  socket.on("data", (chunk: Buffer) => {
    pending += chunk.toString("latin1");
    let end = pending.indexOf("\n");
    while (end >= 0) {
      const id = pending.slice(0, end);
      pending = pending.slice(end + 1);
      end = pending.indexOf("\n");
      if (!ID_PATTERN.test(id)) continue;
      requests++;
      const work = serve(id, requests > options.maxRequests).finally(() => inFlight.delete(work));
      inFlight.add(work);
    }
    if (pending.length > 1000) pending = "";
  });
  socket.on("error", () => undefined);

  return {
    async close() {
      socket.destroy();
      controller.abort();
      await Promise.allSettled([...inFlight]);
    },
  };
}

async function readRequest(
  file: string,
  maxBytes: number,
): Promise<Readonly<Record<string, unknown>> | undefined> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > maxBytes) return undefined;
    const parsed: unknown = JSON.parse(await handle.readFile("utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    return parsed as Record<string, unknown>;
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

/** Writes `answer` to the shim's reply FIFO, if the shim is still there to read it. */
export async function replyThroughFifo(file: string, answer: BrokerAnswer): Promise<void> {
  let fd: number;
  try {
    // Non-blocking: a FIFO nobody reads makes open fail (ENXIO) instead of waiting.
    fd = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return; // the shim is gone (killed, timed out): nobody to answer
  }
  const isFifo = fstatSync(fd).isFIFO();
  // The stat above left Node's shared stat buffer describing a FIFO, which breaks the next lazy
  // import's resolution on Node 20 and 22 (@climpt/host-git's stat-buffer.ts).
  resetStatBuffer();
  if (!isFifo) {
    closeSync(fd);
    return;
  }
  const out = new net.Socket({ fd, readable: false, writable: true });
  await new Promise<void>((resolve) => {
    out.once("error", () => resolve());
    out.once("close", () => resolve());
    out.end(`${JSON.stringify(answer)}\n`);
  });
}
