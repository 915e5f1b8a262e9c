import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolboxFor, useTempDirs } from "../tools.test-helper.ts";
import { countingServer } from "./sandbox.test-helper.ts";
import { findOnPath } from "./sandbox-programs.ts";

// The runtime starts its proxy bridges inside the sandbox in the background. On a busy machine
// they listen only after the command has started; this file makes that certain with a `socat`
// whose in-sandbox bridges (the ones listening on TCP) start a second late. It is first on PATH
// when the runtime starts, in a file of its own: vitest gives each file its own modules, so no
// other test shares the slow runtime.
describe("a command allowed a host, when the sandbox's proxy bridges start late", () => {
  const tempDir = useTempDirs();
  const savedPath = process.env.PATH;
  let work = "";

  beforeAll(() => {
    work = tempDir();
    const bin = path.join(work, "slow-bin");
    mkdirSync(bin);
    const socat = findOnPath("socat", savedPath ?? "");
    if (socat === undefined) throw new Error("socat is not installed (Debian: socat)");
    const slow = path.join(bin, "socat");
    writeFileSync(
      slow,
      `#!/bin/sh\ncase "$*" in *TCP-LISTEN:*) sleep 1 ;; esac\nexec ${socat} "$@"\n`,
    );
    chmodSync(slow, 0o755);
    process.env.PATH = `${bin}:${savedPath ?? ""}`;
  });

  afterAll(() => {
    process.env.PATH = savedPath;
  });

  it("reaches the allowed host: the command waits until the bridges listen", async () => {
    const server = await countingServer();
    try {
      const url = `http://127.0.0.1:${server.port}/`;
      const result = await toolboxFor(work, {
        sandbox: { network: { allow: [`127.0.0.1:${server.port}`] } },
      }).call("Bash", { command: `curl -fsS -m 20 --noproxy '' ${url} || echo unreachable` });
      expect(result.content).toContain("reached");
      expect(server.hits()).toBe(1);
    } finally {
      await server.close();
    }
  });
});
