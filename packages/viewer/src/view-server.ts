import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { VIEW_SERVE_CODES } from "./codes.ts";
import type { ProjectLocation } from "./discover-runs.ts";
import { ProjectRuns } from "./project-runs.ts";
import { renderPage } from "./render-page.ts";
import { pageScrubber } from "./scrub-secrets.ts";
import type { PageData } from "./view-model.ts";

export interface ViewServerOptions extends ProjectLocation {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Environment whose secret-named variables' values are scrubbed (default: none). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How often journals are checked for new lines (default 200 ms). */
  readonly pollIntervalMs?: number;
}

export interface ViewServer {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

interface LiveClient {
  readonly response: ServerResponse;
  readonly runId: string | null;
  /** Events of the followed run this client has. */
  sent: number;
}

/** The only host the server answers on: loopback. */
const HOST = "127.0.0.1";
/** Keeps idle event streams open through proxies and tells a dead client from a quiet run. */
const HEARTBEAT_MS = 15_000;

function send(response: ServerResponse, event: string, data: unknown): void {
  response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function reply(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  response.end(body);
}

function errorReply(response: ServerResponse, status: number, code: string, message: string): void {
  reply(
    response,
    status,
    "application/json; charset=utf-8",
    JSON.stringify({ error: { code, message } }),
  );
}

/**
 * `climpt view --serve`: the project's runs on 127.0.0.1, live. The page is the same as a written
 * one; it then follows the selected run through server-sent events (`/api/live`), which carry the
 * runs list whenever a journal changes and every new event of the followed run as the runner
 * appends it. Only GET, only from a loopback Host (a page on another site cannot read it through
 * DNS rebinding). Reads journals; never writes them.
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const project = new ProjectRuns(
    { cwd: options.cwd, ...(options.agentDir === undefined ? {} : { agentDir: options.agentDir }) },
    pageScrubber(options.env ?? {}),
  );
  await project.poll();
  const clients = new Set<LiveClient>();
  let port = 0;

  const allowedHost = (request: IncomingMessage) => {
    const host = request.headers.host ?? "";
    return host === `${HOST}:${port}` || host === `localhost:${port}`;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      errorReply(
        response,
        405,
        VIEW_SERVE_CODES.notGet,
        "Only GET: the viewer never changes a journal.",
      );
      return;
    }
    if (!allowedHost(request)) {
      errorReply(
        response,
        403,
        VIEW_SERVE_CODES.foreignHost,
        "Open the viewer through 127.0.0.1 or localhost.",
      );
      return;
    }
    const url = new URL(request.url ?? "/", `http://${HOST}:${port}`);
    if (url.pathname === "/") {
      const runs = project.summaries();
      const data: PageData = {
        mode: "live",
        generatedAt: new Date().toISOString(),
        runs,
        sources: {},
        selectedRunId: url.searchParams.get("run") ?? runs[0]?.runId ?? null,
      };
      reply(response, 200, "text/html; charset=utf-8", renderPage(data, "climpt runs (live)"));
      return;
    }
    if (url.pathname === "/api/runs") {
      reply(response, 200, "application/json; charset=utf-8", JSON.stringify(project.summaries()));
      return;
    }
    const runMatch = /^\/api\/runs\/([^/]+)$/.exec(url.pathname);
    if (runMatch !== null) {
      const source = await project.source(decodeURIComponent(runMatch[1] as string));
      if (source === null)
        errorReply(response, 404, VIEW_SERVE_CODES.notFound, "No such run in this project.");
      else reply(response, 200, "application/json; charset=utf-8", JSON.stringify(source));
      return;
    }
    if (url.pathname === "/api/live") {
      const runId = url.searchParams.get("run");
      const from = Number(url.searchParams.get("from") ?? "0");
      response.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
      const client: LiveClient = { response, runId, sent: 0 };
      send(response, "runs", project.summaries());
      if (runId !== null && project.has(runId)) {
        if (Number.isInteger(from) && from > 0) {
          client.sent = from;
          const events = project.eventsOf(runId, from);
          if (events.length > 0) send(response, "events", { runId, from, events });
          client.sent = from + events.length;
        } else {
          const source = await project.source(runId);
          if (source !== null) {
            send(response, "source", source);
            client.sent = source.events.length;
          }
        }
      }
      clients.add(client);
      request.on("close", () => clients.delete(client));
      return;
    }
    errorReply(response, 404, VIEW_SERVE_CODES.notFound, `Nothing at ${url.pathname}.`);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        errorReply(response, 500, VIEW_SERVE_CODES.failed, (error as Error).message);
      else response.end();
    });
  });

  let polling = false;
  const tick = async () => {
    if (polling) return;
    polling = true;
    try {
      const change = await project.poll();
      for (const client of clients) {
        if (change.runsChanged) send(client.response, "runs", project.summaries());
        const runId = client.runId;
        if (runId === null) continue;
        if (change.reset.has(runId)) {
          const source = await project.source(runId);
          if (source !== null) {
            send(client.response, "source", source);
            client.sent = source.events.length;
          }
          continue;
        }
        if (!change.appended.has(runId)) continue;
        if (client.sent === 0) {
          // The run appeared after the client connected: it has nothing yet, send it whole.
          const source = await project.source(runId);
          if (source !== null) {
            send(client.response, "source", source);
            client.sent = source.events.length;
          }
          continue;
        }
        const events = project.eventsOf(runId, client.sent);
        if (events.length === 0) continue;
        send(client.response, "events", { runId, from: client.sent, events });
        client.sent += events.length;
      }
    } finally {
      polling = false;
    }
  };
  const poller = setInterval(() => {
    void tick();
  }, options.pollIntervalMs ?? 200);
  const heartbeat = setInterval(() => {
    for (const client of clients) client.response.write(": heartbeat\n\n");
  }, HEARTBEAT_MS);

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, HOST, () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://${HOST}:${port}/`,
    port,
    close: async () => {
      clearInterval(poller);
      clearInterval(heartbeat);
      for (const client of clients) client.response.end();
      clients.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
