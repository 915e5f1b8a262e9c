import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A slow Messages API whose speed the test decides: a loopback proxy in front of the fake
 * Messages API that holds every request until the test releases it, then passes it on and
 * streams the fake's reply back untouched. A run driven through it advances one model call at a
 * time, so a test can look at the page between two calls without guessing at timings.
 */
export interface HeldReplies {
  readonly url: string;
  /** Requests waiting to be released. */
  pending(): number;
  /** Resolves once at least `count` requests are waiting. */
  waitForPending(count: number): Promise<void>;
  /** Passes on the oldest `count` waiting requests. */
  release(count?: number): void;
  /** From now on, passes every request on at once. */
  releaseAll(): void;
  close(): Promise<void>;
}

export async function startHeldReplies(upstream: string): Promise<HeldReplies> {
  const target = new URL(upstream);
  const waiting: (() => void)[] = [];
  const watchers: (() => void)[] = [];
  let open = false;

  const forward = (incoming: IncomingMessage, body: Buffer, response: ServerResponse) => {
    const proxied = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    proxied.on("error", () => response.destroy());
    proxied.end(body);
  };

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const pass = () => forward(incoming, Buffer.concat(chunks), response);
      if (open) pass();
      else {
        waiting.push(pass);
        for (const watcher of watchers.splice(0)) watcher();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    pending: () => waiting.length,
    waitForPending(count) {
      return new Promise((resolve) => {
        const check = () => {
          if (waiting.length >= count) resolve();
          else watchers.push(check);
        };
        check();
      });
    },
    release(count = 1) {
      for (const pass of waiting.splice(0, count)) pass();
    },
    releaseAll() {
      open = true;
      for (const pass of waiting.splice(0)) pass();
    },
    close: async () => {
      open = true;
      for (const pass of waiting.splice(0)) pass();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
