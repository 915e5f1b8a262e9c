import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  BUILD_STAMP,
  findIncompleteBuild,
  INCOMPLETE_BUILD_CODE,
  incompleteBuildMessage,
} from "./build-check.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A package folder with a package.json and, when `built`, a dist holding the build stamp. */
function writePackage(
  dir: string,
  name: string,
  dependencies: Record<string, string>,
  built: boolean,
): string {
  mkdirSync(path.join(dir, "dist"), { recursive: true });
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name, exports: { "./package.json": "./package.json" }, dependencies }),
  );
  writeFileSync(path.join(dir, "dist", "index.mjs"), "export const half = 1;\n");
  if (built) writeFileSync(path.join(dir, "dist", BUILD_STAMP), "{}\n");
  return dir;
}

/** An installed `climpt` with @climpt/runner → @climpt/model below it, like npm lays it out. */
function install(built: { cli: boolean; runner: boolean; model: boolean }): string {
  const root = mkdtempSync(path.join(tmpdir(), "climpt-build-check-"));
  dirs.push(root);
  const modules = path.join(root, "node_modules");
  const cli = writePackage(
    path.join(modules, "climpt"),
    "climpt",
    { "@climpt/runner": "^0.1.0", "typescript-json-schema": "^0.68.0" },
    built.cli,
  );
  writePackage(
    path.join(modules, "@climpt", "runner"),
    "@climpt/runner",
    { "@climpt/model": "^0.1.0" },
    built.runner,
  );
  writePackage(path.join(modules, "@climpt", "model"), "@climpt/model", {}, built.model);
  return cli;
}

describe("findIncompleteBuild", () => {
  it("passes when every @climpt package's dist has its stamp", () => {
    expect(findIncompleteBuild(install({ cli: true, runner: true, model: true }))).toBeUndefined();
  });

  it("names a dependency, however deep, whose build was stopped half-way", () => {
    const cli = install({ cli: true, runner: true, model: false });
    const broken = findIncompleteBuild(cli);
    expect(broken?.name).toBe("@climpt/model");
    expect(broken?.dir).toBe(path.join(path.dirname(cli), "@climpt", "model"));
  });

  it("checks the CLI's own build too", () => {
    expect(findIncompleteBuild(install({ cli: false, runner: true, model: true }))?.name).toBe(
      "climpt",
    );
  });

  it("names a @climpt dependency that is not installed at all", () => {
    const cli = install({ cli: true, runner: true, model: true });
    rmSync(path.join(path.dirname(cli), "@climpt", "model"), { recursive: true });
    expect(findIncompleteBuild(cli)?.name).toBe("@climpt/model");
  });

  it("passes on this workspace's own build (the one the CLI tests run)", () => {
    expect(findIncompleteBuild(path.resolve(import.meta.dirname, ".."))).toBeUndefined();
  });
});

describe("incompleteBuildMessage", () => {
  it("says what is wrong, where, and the command that fixes it", () => {
    const message = incompleteBuildMessage({
      name: "@climpt/completion-chain",
      dir: "/repo/packages/completion-chain",
    });
    expect(message).toContain(INCOMPLETE_BUILD_CODE);
    expect(message).toContain("@climpt/completion-chain");
    expect(message).toContain("/repo/packages/completion-chain");
    expect(message).toContain("pnpm build");
  });
});
