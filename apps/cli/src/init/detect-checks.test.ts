import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { detectChecks } from "./detect-checks.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "climpt-detect-"));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const commands = (root: string, given = {}) =>
  Object.fromEntries(detectChecks(root, given).map((check) => [check.kind, check.command]));

describe("detectChecks: the repository's own test, type-check and lint commands", () => {
  it("reads package.json scripts, run by the package manager its lock file names", () => {
    const scripts = JSON.stringify({
      scripts: { test: "vitest run", "type-check": "tsc --noEmit", lint: "biome check ." },
    });
    expect(commands(repo({ "package.json": scripts }))).toEqual({
      test: "npm run test",
      typecheck: "npm run type-check",
      lint: "npm run lint",
    });
    expect(commands(repo({ "package.json": scripts, "pnpm-lock.yaml": "" })).test).toBe(
      "pnpm run test",
    );
    expect(commands(repo({ "package.json": scripts, "yarn.lock": "" })).lint).toBe("yarn run lint");
  });

  it("does not take npm init's placeholder test script, nor a package.json that does not parse", () => {
    const placeholder = JSON.stringify({
      scripts: { test: 'echo "Error: no test specified" && exit 1' },
    });
    expect(commands(repo({ "package.json": placeholder }))).toEqual({});
    expect(commands(repo({ "package.json": "{ not json" }))).toEqual({});
  });

  it("reads a Makefile's targets (not its variable assignments)", () => {
    const makefile =
      "CHECK := x\ntest: build\n\tgo test ./...\nlint:\n\tgolangci-lint run\ntypecheck:= no\n";
    expect(detectChecks(repo({ Makefile: makefile }))).toEqual([
      { kind: "test", command: "make test", source: "Makefile target test" },
      { kind: "lint", command: "make lint", source: "Makefile target lint" },
    ]);
  });

  it("reads pytest, mypy and ruff from pyproject.toml, as tool sections or dependencies", () => {
    const pyproject =
      '[project]\nname = "x"\n[project.optional-dependencies]\ndev = ["pytest>=8", "mypy"]\n[tool.ruff.lint]\nselect = ["E"]\n';
    expect(commands(repo({ "pyproject.toml": pyproject }))).toEqual({
      test: "pytest",
      typecheck: "mypy .",
      lint: "ruff check .",
    });
  });

  it("takes package.json before a Makefile, and a flag before both", () => {
    const root = repo({
      "package.json": JSON.stringify({ scripts: { test: "jest" } }),
      Makefile: "test:\n\tmake-test\nlint:\n\tmake-lint\n",
    });
    expect(commands(root)).toEqual({ test: "npm run test", lint: "make lint" });
    expect(detectChecks(root, { test: " ./run-tests.sh " })[0]).toEqual({
      kind: "test",
      command: "./run-tests.sh",
      source: "--test-command",
    });
  });
});
