import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ValidatorDefinition } from "@climpt/model";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CommandLauncher } from "../command-launcher.ts";
import { hostLauncher } from "../command-launcher.ts";
import { runValidator } from "../run-validator.ts";
import { validator } from "../validator.test-helper.ts";
import { type BaselineSetup, compareWithBaseline } from "./compare-with-baseline.ts";

// Real git repositories and commands; a checkout per comparison.
vi.setConfig({ testTimeout: 60_000 });

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" }).trim();
}

// A test runner in sh printing TAP: tests.txt holds `name:pass` / `name:fail` lines. Each run
// appends its folder to $RUNS_LOG (outside the repository), so a test can count the base's.
const RUNNER = `#!/bin/sh
[ -n "$RUNS_LOG" ] && pwd >> "$RUNS_LOG"
n=0; f=0
echo "TAP version 13"
while IFS=: read -r name result; do
  n=$((n+1))
  if [ "$result" = pass ]; then echo "ok $n - $name"; else f=$((f+1)); echo "not ok $n - $name"; fi
done < tests.txt
echo "1..$n"; echo "# tests $n"; echo "# pass $((n-f))"; echo "# fail $f"
[ $f -eq 0 ]
`;

let root: string;
let repo: string;
let runsLog: string;
let scratchParent: string;
let savedTmp: string | undefined;

function writeTests(results: Record<string, "pass" | "fail">): void {
  const lines = Object.entries(results).map(([name, result]) => `${name}:${result}`);
  writeFileSync(path.join(repo, "tests.txt"), `${lines.join("\n")}\n`);
}

function commit(message: string): string {
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "--allow-empty", "-m", message);
  return git(repo, "rev-parse", "HEAD");
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-baseline-test-")));
  repo = path.join(root, "repo");
  runsLog = path.join(root, "runs.log");
  // The scratch checkouts go to the OS temporary folder: this test's own, to see them go.
  scratchParent = path.join(root, "tmp");
  mkdirSync(scratchParent);
  savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = scratchParent;
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(path.join(repo, "run.sh"), RUNNER);
});

afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  rmSync(root, { recursive: true, force: true });
});

const TESTS: ValidatorDefinition = validator("sh run.sh", "exitCode:0", {
  id: "tests",
  baseline: "compare",
  extractParams: { testResults: "parseTestOutput", output: "stdout" },
});

function setup(extra: Partial<BaselineSetup> = {}): BaselineSetup {
  return {
    target: { ref: "refs/heads/main", name: "main" },
    cacheDir: path.join(root, "cache"),
    launcherFor: "host",
    ...extra,
  };
}

/** Runs the validator in the repository, then compares a failure with the base. */
async function check(def: ValidatorDefinition, baselineSetup: BaselineSetup = setup()) {
  const options = { cwd: repo, env: { RUNS_LOG: runsLog } };
  const head = await runValidator(def, options);
  return compareWithBaseline(def, head, options, baselineSetup);
}

function baseRuns(): number {
  if (!existsSync(runsLog)) return 0;
  return readFileSync(runsLog, "utf8")
    .split("\n")
    .filter((line) => line !== "" && line !== repo).length;
}

/** main has `old` failing; the work branch keeps it failing and does `change`. */
function branchOffFailingMain(change: Record<string, "pass" | "fail">): string {
  writeTests({ old: "fail", kept: "pass" });
  const base = commit("base: one test already fails");
  git(repo, "checkout", "-qb", "work");
  writeTests({ old: "fail", kept: "pass", ...change });
  commit("work");
  return base;
}

describe("compareWithBaseline", () => {
  it("counts a validator whose only failure already fails on the merge base as passed, and says so", async () => {
    const base = branchOffFailingMain({ added: "pass" });
    const result = await check(TESTS);
    expect(result.exitCode).toBe(1);
    expect(result.passed).toBe(true);
    expect(result.baseline).toEqual({
      status: "compared",
      reason: `every failure (1) already fails on main (${base.slice(0, 12)}): counted as passed`,
      baseSha: base,
      preExisting: ["old"],
      introduced: [],
    });
    // The checkout ran once and is gone, with its registration.
    expect(baseRuns()).toBe(1);
    expect(readdirSync(scratchParent)).toEqual([]);
    expect(git(repo, "worktree", "list", "--porcelain").match(/^worktree /gm)?.length).toBe(1);
  });

  it("blocks on a failure the change introduced, lists it apart from the pre-existing one, and runs the base once per commit and command", async () => {
    branchOffFailingMain({ kept: "fail" });
    const first = await check(TESTS);
    expect(first.passed).toBe(false);
    expect(first.baseline).toMatchObject({
      status: "compared",
      preExisting: ["old"],
      introduced: ["kept"],
    });
    const again = await check(TESTS);
    expect(again.baseline).toEqual(first.baseline);
    expect(baseRuns()).toBe(1);
    // Another commit on the base is another comparison.
    git(repo, "checkout", "-q", "main");
    writeFileSync(path.join(repo, "notes.txt"), "more\n");
    commit("base moves on");
    git(repo, "checkout", "-q", "work");
    git(repo, "merge", "-q", "--no-edit", "main");
    await check(TESTS);
    expect(baseRuns()).toBe(2);
  });

  it("is strict when the base cannot be checked, and says why", async () => {
    branchOffFailingMain({ kept: "fail" });
    const reasons: Record<string, string | undefined> = {};
    const cases: [string, ValidatorDefinition, BaselineSetup][] = [
      ["no base branch", TESTS, setup({ target: { unavailable: "the run has no base branch" } })],
      ["no merge base", TESTS, setup({ target: { ref: "refs/heads/nowhere", name: "nowhere" } })],
      ["no extractor names failures", { ...TESTS, extractParams: { output: "stdout" } }, setup()],
      // The command needs a file the base does not have: it cannot start there (exit 127).
      [
        "fails to start on the base",
        { ...TESTS, command: "test -f work-only || exit 127; sh run.sh" },
        setup({ cacheDir: path.join(root, "cache-2") }),
      ],
    ];
    writeFileSync(path.join(repo, "work-only"), "");
    commit("a file only the work branch has");
    for (const [name, def, baselineSetup] of cases) {
      const result = await check(def, baselineSetup);
      expect(result.passed, name).toBe(false);
      expect(result.baseline?.status, name).toBe("unavailable");
      expect(result.baseline?.introduced, name).toEqual([]);
      reasons[name] = result.baseline?.reason;
    }
    expect(reasons["no base branch"]).toBe("the run has no base branch");
    expect(reasons["no merge base"]).toContain("there is no merge base of HEAD and nowhere");
    expect(reasons["no extractor names failures"]).toContain(
      "names no extractor that names failures",
    );
    expect(reasons["fails to start on the base"]).toContain("SR-VALID-103");
  });

  it("refuses a merge base the branch's history was rewritten onto, before the one the run started from", async () => {
    writeTests({ kept: "fail" });
    commit("long ago, kept failed");
    writeTests({ kept: "pass" });
    const start = commit("base: kept fixed");
    git(repo, "checkout", "-qb", "work", "HEAD~1");
    writeTests({ kept: "fail", extra: "pass" });
    commit("work rebased onto the old commit");
    const result = await check(
      TESTS,
      setup({ target: { ref: "refs/heads/main", name: "main", startBase: start } }),
    );
    expect(result.passed).toBe(false);
    expect(result.baseline?.status).toBe("unavailable");
    expect(result.baseline?.reason).toContain("history was rewritten onto an older base");
    expect(baseRuns()).toBe(0);
  });

  it("leaves a passed result and a validator with baseline off as they are (off: every failure blocks)", async () => {
    branchOffFailingMain({});
    const off = await check({ ...TESTS, baseline: "off" });
    expect(off.passed).toBe(false);
    expect(off.baseline).toEqual({ status: "off", preExisting: [], introduced: [] });
    const unset: ValidatorDefinition = { ...TESTS };
    delete (unset as { baseline?: string }).baseline;
    expect((await check(unset)).baseline?.status).toBe("off");
    writeTests({ old: "pass", kept: "pass" });
    const passed = await check(TESTS);
    expect(passed.passed).toBe(true);
    expect(passed).not.toHaveProperty("baseline");
    expect(baseRuns()).toBe(0);
  });

  it("runs the base's command through the launcher made for the base's checkout", async () => {
    branchOffFailingMain({});
    const seen: string[] = [];
    const launcherFor = (cwd: string): CommandLauncher => {
      const host = hostLauncher({ RUNS_LOG: runsLog });
      return async (command, request) => {
        seen.push(`${cwd} ${request.cwd}`);
        return host(command, request);
      };
    };
    const result = await check(TESTS, setup({ launcherFor }));
    expect(result.passed).toBe(true);
    expect(seen).toHaveLength(1);
    const [made, asked] = (seen[0] as string).split(" ");
    expect(made).toBe(asked);
    expect(made?.startsWith(scratchParent)).toBe(true);
  });

  it("runs the command in the same subfolder of the base's checkout as it ran in here", async () => {
    const sub = path.join(repo, "pkg");
    mkdirSync(sub);
    writeFileSync(path.join(sub, "run.sh"), RUNNER);
    writeFileSync(path.join(sub, "tests.txt"), "old:fail\n");
    commit("base: a package whose test already fails");
    git(repo, "checkout", "-qb", "work");
    writeFileSync(path.join(sub, "tests.txt"), "old:fail\nnew:pass\n");
    commit("work");
    const options = { cwd: sub, env: { RUNS_LOG: runsLog } };
    const head = await runValidator(TESTS, options);
    const result = await compareWithBaseline(TESTS, head, options, setup());
    expect(result.baseline).toMatchObject({ status: "compared", preExisting: ["old"] });
    const ran = readFileSync(runsLog, "utf8").trim().split("\n");
    expect(ran).toHaveLength(2);
    expect(ran[1]?.startsWith(scratchParent)).toBe(true);
    expect(ran[1]?.endsWith(`${path.sep}tree${path.sep}pkg`)).toBe(true);
  });
});
