import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { BUILD_STAMP } from "../build-check.ts";
import { BIN, REPO_ROOT } from "./spawn-cli.test-helper.ts";

const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), "climpt-half-built-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("climpt with a half-built dependency", () => {
  it("refuses with a coded message naming `pnpm build`, not an internal-error stack trace", async () => {
    // An install of the built CLI whose @climpt/model was copied without its build stamp, as a
    // stopped build leaves it; every other @climpt package is the workspace's own build.
    const modules = path.join(scratch, "node_modules");
    const cli = path.join(modules, "climpt");
    mkdirSync(path.join(modules, "@climpt"), { recursive: true });
    cpSync(path.dirname(path.dirname(BIN)), cli, {
      recursive: true,
      filter: (source) => !source.includes("node_modules") && !source.includes(`${path.sep}src`),
    });
    // Every @climpt package the CLI depends on, from its manifest (a list here went stale once).
    const manifest = JSON.parse(readFileSync(path.join(cli, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const ours = Object.keys(manifest.dependencies)
      .filter((name) => name.startsWith("@climpt/"))
      .map((name) => name.slice("@climpt/".length));
    for (const name of ours.filter((name) => name !== "model")) {
      symlinkSync(path.join(REPO_ROOT, "packages", name), path.join(modules, "@climpt", name));
    }
    const model = path.join(modules, "@climpt", "model");
    cpSync(path.join(REPO_ROOT, "packages", "model"), model, {
      recursive: true,
      filter: (source) => !source.includes("node_modules") && !source.endsWith(BUILD_STAMP),
    });

    const outcome = await run(process.execPath, [path.join(cli, "dist", "bin.mjs"), "--help"], {
      cwd: scratch,
    }).then(
      () => ({ code: 0, stdout: "", stderr: "" }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr).toContain("AC-BUILD-001 the build of @climpt/model is missing");
    expect(outcome.stderr).toContain(model);
    expect(outcome.stderr).toContain("pnpm build");
    expect(outcome.stderr).not.toContain("internal error");
  });
});

describe("the installed executable (bin/climpt.mjs)", () => {
  it("runs the build, printing exactly what the command prints", async () => {
    const launcher = path.join(path.dirname(path.dirname(BIN)), "bin", "climpt.mjs");
    const args = ["graph", path.join(REPO_ROOT, "examples", "agents", "fix-bug")];
    const [viaLauncher, direct] = await Promise.all([
      run(process.execPath, [launcher, ...args]),
      run(process.execPath, [BIN, ...args]),
    ]);
    expect(viaLauncher.stdout).toBe(direct.stdout);
    expect(viaLauncher.stdout.length).toBeGreaterThan(0);
  });

  it("says which command builds climpt when there is no build", async () => {
    // A copy of the package with the launcher but no dist, as a fresh clone has it.
    const copy = path.join(scratch, "unbuilt");
    mkdirSync(path.join(copy, "bin"), { recursive: true });
    cpSync(path.join(path.dirname(path.dirname(BIN)), "bin"), path.join(copy, "bin"), {
      recursive: true,
    });
    const outcome = await run(process.execPath, [
      path.join(copy, "bin", "climpt.mjs"),
      "--help",
    ]).then(
      () => ({ code: 0, stdout: "", stderr: "" }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr).toContain("AC-BUILD-001 the build of climpt is missing");
    expect(outcome.stderr).toContain("pnpm build");
  });
});
