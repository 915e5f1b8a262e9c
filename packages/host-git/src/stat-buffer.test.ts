import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { useTempDirs } from "./host-git.test-helper.ts";

// The built package: the script below runs in a plain Node process, which imports JavaScript.
// (This package's test task builds it first, turbo.json.)
const BUILT = pathToFileURL(path.join(import.meta.dirname, "..", "dist", "index.mjs")).href;

/**
 * A pnpm-shaped layout: `app/node_modules/pkg` is a symlink to `store/node_modules/pkg`, whose
 * dependency `dep` sits beside it in the store and is found only from pkg's real folder. The
 * script imports a module of `app` first (so the resolver knows `app`'s folders are plain ones),
 * stats a FIFO, optionally calls resetStatBuffer, and then imports `pkg` as a lazy import does.
 */
function layout(root: string): { script: string; fifo: string } {
  const store = path.join(root, "store", "node_modules");
  for (const name of ["pkg", "dep"]) {
    mkdirSync(path.join(store, name), { recursive: true });
    writeFileSync(
      path.join(store, name, "package.json"),
      JSON.stringify({ name, type: "module", exports: "./index.js" }),
    );
  }
  writeFileSync(path.join(store, "dep", "index.js"), "export const dep = 42;\n");
  writeFileSync(
    path.join(store, "pkg", "index.js"),
    'import { dep } from "dep";\nexport const pkg = dep;\n',
  );
  const app = path.join(root, "app");
  mkdirSync(path.join(app, "node_modules"), { recursive: true });
  symlinkSync(path.join(store, "pkg"), path.join(app, "node_modules", "pkg"));
  writeFileSync(path.join(app, "first.mjs"), "export const first = 1;\n");
  const fifo = path.join(root, "fifo");
  execFileSync("mkfifo", [fifo]);
  const script = path.join(app, "main.mjs");
  writeFileSync(
    script,
    [
      'import { statSync } from "node:fs";',
      `const { resetStatBuffer } = await import(${JSON.stringify(BUILT)});`,
      'await import("./first.mjs");',
      "statSync(process.argv[2]);",
      'if (process.argv[3] === "reset") resetStatBuffer();',
      'try { const { pkg } = await import("pkg"); console.log("loaded " + pkg); }',
      "catch (error) { console.log(String(error.message).split('\\n')[0]); }",
    ].join("\n"),
  );
  return { script, fifo };
}

function run(script: string, args: readonly string[]): string {
  const result = spawnSync(process.execPath, [script, ...args], { encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.trim();
}

describe("resetStatBuffer", () => {
  const tempDir = useTempDirs();

  it("a lazy import through a node_modules symlink finds its dependency after a FIFO was stat'ed", () => {
    const { script, fifo } = layout(tempDir());
    const withReset = run(script, [fifo, "reset"]);
    expect(withReset).toBe("loaded 42");
    // The bug it works around, on the Node lines that have it: without the reset, pkg is loaded
    // from the symlink's path and `dep` is not found from there.
    const without = run(script, [fifo]);
    if (Number(process.versions.node.split(".")[0]) < 24) {
      expect(without).toMatch(/Cannot find package 'dep' imported from .*app\/node_modules\/pkg/);
    }
  });
});
