import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSampleRepo } from "./runs.test-helper.ts";
import { startViewServer, type ViewServer } from "./view-server.ts";

let server: ViewServer;
beforeAll(async () => {
  server = await startViewServer({ cwd: makeSampleRepo({ withAgent: true }) });
});
afterAll(async () => {
  await server?.close();
});

function get(path: string, options: { method?: string; host?: string } = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port: server.port,
        path,
        method: options.method ?? "GET",
        headers: { host: options.host ?? `127.0.0.1:${server.port}` },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8").on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("the view server", () => {
  it("serves the page and the runs on loopback", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get("/");
    expect(page.status).toBe(200);
    expect(page.body).toContain("connect-src 'self'");
    expect(await get("/api/runs")).toEqual({ status: 200, body: "[]" });
  });

  it("refuses to change anything, other hosts, and unknown runs, with coded errors", async () => {
    expect((await get("/api/runs", { method: "POST" })).body).toContain("VIEW-SERVE-002");
    const rebound = await get("/", { host: "attacker.example:80" });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain("VIEW-SERVE-003");
    const missing = await get("/api/runs/nope");
    expect(missing.status).toBe(404);
    expect(missing.body).toContain("VIEW-SERVE-004");
  });
});
