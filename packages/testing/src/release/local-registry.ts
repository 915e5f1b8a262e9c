/**
 * A real npm registry on this machine for the release test: Verdaccio, from npm, in a child
 * process, storage in a temporary folder, listening on 127.0.0.1 on a port the system picks, and
 * with no uplinks, so a package it does not hold is a 404 and nothing is asked of, or published
 * to, any other registry. One throwaway user is created; its token publishes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

/** A running local registry. */
export interface LocalRegistry {
  /** `http://127.0.0.1:PORT/`, with the trailing slash npm writes in its config keys. */
  readonly url: string;
  /** The throwaway user's token. */
  readonly token: string;
  /**
   * The environment that points npm, pnpm and changesets at this registry with the token
   * (`npm_config_registry` and the `//host:port/:_authToken` key), to add to a child's.
   */
  readonly env: Readonly<Record<string, string>>;
  /** The `.npmrc` lines of a project that installs from this registry. */
  readonly npmrc: string;
  /**
   * Publishes a package version from its manifest and tarball bytes, as `npm publish` does (one
   * PUT of the packument with the tarball attached). The manifest is what the registry serves;
   * a `publishConfig` in it cannot send the package elsewhere.
   */
  publishTarball(manifest: PublishedManifest, tarball: Buffer): Promise<void>;
  /** The versions the registry holds of `name` (empty when it holds none). */
  versionsOf(name: string): Promise<string[]>;
  /** Stops the server and deletes its storage. */
  close(): Promise<void>;
}

/** The fields of a package.json the registry needs; the rest is kept as it is. */
export interface PublishedManifest {
  readonly name: string;
  readonly version: string;
  readonly [field: string]: unknown;
}

// The server, run as `node -e` so that it needs no file of its own in the build. Verdaccio's
// programmatic entry takes the configuration as an object; `listen(0)` lets the system choose
// the port, which the child prints as its first line.
//
// API tokens are JWTs: Verdaccio checks one with an HMAC. Its legacy tokens hold the user's
// password, which it checks against htpasswd's bcrypt hash (pure JavaScript, 10 rounds) on
// every request that carries the token: about 85 ms of CPU per request, and npm and pnpm send
// the token with every manifest and tarball they fetch. The release test's seeding, publishes
// and installs spent ~80 CPU-seconds in the registry that way; with JWTs, under 5.
const SERVER_SOURCE = `
const { runServer } = require(process.env.CLIMPT_VERDACCIO_MAIN);
const path = require("node:path");
const home = process.env.CLIMPT_VERDACCIO_HOME;
// The test holds stdin open; when it ends (the test process died without closing the server),
// so does the server.
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
runServer({
  self_path: home,
  storage: path.join(home, "storage"),
  auth: { htpasswd: { file: path.join(home, "htpasswd"), max_users: 1 } },
  uplinks: {},
  packages: { "**": { access: "$all", publish: "$authenticated", unpublish: "$authenticated" } },
  log: { type: "stdout", format: "json", level: "error" },
  web: { enable: false },
  max_body_size: "300mb",
  security: { api: { jwt: { sign: { expiresIn: "1d" } } } },
}).then((app) => {
  app.listen(0, "127.0.0.1", () => {
    process.stdout.write(JSON.stringify({ port: app.address().port }) + "\\n");
  });
}, (error) => {
  process.stderr.write(String(error && error.stack || error) + "\\n");
  process.exit(1);
});
`;

/** How long Verdaccio may take to answer with its port (it loads in about a second alone). */
const START_LIMIT_MS = 60_000;

/** How long one request to the registry may take before it counts as hung. */
const REQUEST_LIMIT_MS = 120_000;

function waitForPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      reject(new Error(`Verdaccio did not start within ${START_LIMIT_MS} ms: ${stderr}`));
    }, START_LIMIT_MS);
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const line = stdout.split("\n").find((candidate) => candidate.startsWith('{"port"'));
      if (line === undefined) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`Verdaccio exited (${code ?? signal}) before it listened: ${stderr}`));
    });
  });
}

async function request(
  url: string,
  init: { method?: string; body?: string; token?: string },
): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: {
      "content-type": "application/json",
      ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
    },
    ...(init.body === undefined ? {} : { body: init.body }),
    signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
  });
  return { status: response.status, body: await response.text() };
}

/** Starts Verdaccio 6 (this package's dev dependency) and creates its one user. */
export async function startLocalRegistry(): Promise<LocalRegistry> {
  const home = await mkdtemp(path.join(tmpdir(), "climpt-verdaccio-"));
  const verdaccioMain = createRequire(import.meta.url).resolve("verdaccio");
  const child = spawn(process.execPath, ["-e", SERVER_SOURCE], {
    env: {
      PATH: process.env.PATH ?? "",
      CLIMPT_VERDACCIO_MAIN: verdaccioMain,
      CLIMPT_VERDACCIO_HOME: home,
      // Verdaccio's deprecation notices are not the test's business.
      NODE_NO_WARNINGS: "1",
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await rm(home, { recursive: true, force: true });
  };
  try {
    const port = await waitForPort(child);
    const base = `http://127.0.0.1:${port}/`;
    const user = "climpt-release-test";
    const created = await request(`${base}-/user/org.couchdb.user:${user}`, {
      method: "PUT",
      body: JSON.stringify({
        name: user,
        password: createHash("sha256").update(home).digest("hex"),
      }),
    });
    if (created.status !== 201) {
      throw new Error(`Verdaccio refused the test user (${created.status}): ${created.body}`);
    }
    const token = (JSON.parse(created.body) as { token: string }).token;
    const authKey = `//127.0.0.1:${port}/:_authToken`;
    return {
      url: base,
      token,
      env: { npm_config_registry: base, [`npm_config_${authKey}`]: token },
      npmrc: `registry=${base}\n${authKey}=${token}\n`,
      async publishTarball(manifest, tarball) {
        const file = `${manifest.name.replace(/^@[^/]+\//, "")}-${manifest.version}.tgz`;
        const shasum = createHash("sha1").update(tarball).digest("hex");
        const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`;
        const encoded = manifest.name.replace("/", "%2f");
        const packument = {
          _id: manifest.name,
          name: manifest.name,
          "dist-tags": { latest: manifest.version },
          versions: {
            [manifest.version]: {
              ...manifest,
              _id: `${manifest.name}@${manifest.version}`,
              dist: { shasum, integrity, tarball: `${base}${manifest.name}/-/${file}` },
            },
          },
          _attachments: {
            [file]: {
              content_type: "application/octet-stream",
              data: tarball.toString("base64"),
              length: tarball.length,
            },
          },
        };
        const published = await request(`${base}${encoded}`, {
          method: "PUT",
          body: JSON.stringify(packument),
          token,
        }).catch((error: unknown) => {
          throw new Error(
            `Publishing ${manifest.name}@${manifest.version} (${tarball.length} bytes) to the local registry failed: ${(error as Error).message} (${String((error as Error).cause ?? "")})`,
          );
        });
        if (published.status !== 201 && published.status !== 200) {
          throw new Error(
            `Publishing ${manifest.name}@${manifest.version} to the local registry failed (${published.status}): ${published.body}`,
          );
        }
      },
      async versionsOf(name) {
        const found = await request(`${base}${name.replace("/", "%2f")}`, {});
        if (found.status === 404) return [];
        if (found.status !== 200) {
          throw new Error(`The local registry answered ${found.status} for ${name}: ${found.body}`);
        }
        return Object.keys((JSON.parse(found.body) as { versions: object }).versions);
      },
      close: stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
