import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { ensureDebianPackages } from "./debian-packages.ts";

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Makes sure `redis-server` is installed, through the shared Debian installer (one apt-get
 * update per process, a lock timeout so that suites installing at once wait for each other, and
 * a clear error naming the package when this is not root). Tests that need Redis call this first.
 */
export function ensureRedisServer(): void {
  ensureDebianPackages(["redis-server"], ["redis-server"]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function waitForReady(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      reject(new Error(`redis-server did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`));
    });
  });
}

/**
 * A private `redis-server` on 127.0.0.1 at a free port, without persistence (no RDB, no AOF, in
 * a temporary working folder), for one test file. Stop it in `afterAll`.
 */
export async function startRedisServer(): Promise<RedisServer> {
  ensureRedisServer();
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--protected-mode",
        "yes",
        "--dir",
        tmpdir(),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      await waitForReady(child, 30_000);
    } catch (error) {
      child.kill("SIGKILL");
      // Another process took the port between the probe and the start: try another.
      if (attempt < 3) continue;
      throw error;
    }
    child.stdout?.resume();
    child.stderr?.resume();
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      stop: async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      },
    };
  }
}
