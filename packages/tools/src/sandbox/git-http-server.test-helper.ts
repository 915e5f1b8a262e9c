/** A git smart-HTTP server for the push tests (not exported from the package). */
import { spawn } from "node:child_process";
import http from "node:http";
import type net from "node:net";

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** Requests refused for want of the token, and requests served. */
  unauthorized(): number;
  served(): number;
  close(): Promise<void>;
}

/**
 * Serves the bare repositories under `projectRoot` with `git http-backend` (the CGI program git
 * ships), behind HTTP basic authentication: only `x:<token>` gets in, as with a hosting service
 * and a personal access token. Pushes are allowed to an authenticated user.
 */
export async function gitHttpServer(projectRoot: string, token: string): Promise<GitHttpServer> {
  const expected = `Basic ${Buffer.from(`x:${token}`).toString("base64")}`;
  let unauthorized = 0;
  let served = 0;
  const server = http.createServer((request, response) => {
    if (request.headers.authorization !== expected) {
      unauthorized++;
      response.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"' });
      response.end("authentication required\n");
      request.resume();
      return;
    }
    served++;
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const backend = spawn("git", ["http-backend"], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: "1",
        REQUEST_METHOD: request.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: request.headers["content-type"] ?? "",
        HTTP_CONTENT_ENCODING: request.headers["content-encoding"] ?? "",
        GIT_PROTOCOL: String(request.headers["git-protocol"] ?? ""),
        REMOTE_USER: "x",
        REMOTE_ADDR: "127.0.0.1",
      },
      stdio: ["pipe", "pipe", "inherit"],
    });
    request.pipe(backend.stdin);
    const chunks: Buffer[] = [];
    backend.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    backend.on("close", () => {
      const output = Buffer.concat(chunks);
      const split = output.indexOf("\r\n\r\n");
      const headerEnd = split >= 0 ? split : output.indexOf("\n\n");
      const headerText = output.subarray(0, headerEnd).toString("latin1");
      const body = output.subarray(headerEnd + (split >= 0 ? 4 : 2));
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of headerText.split(/\r?\n/)) {
        const colon = line.indexOf(":");
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      response.writeHead(status, headers);
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    unauthorized: () => unauthorized,
    served: () => served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
