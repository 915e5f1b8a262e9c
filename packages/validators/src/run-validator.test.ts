// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${param} is the validator placeholder syntax under test
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runValidator } from "./run-validator.ts";
import { validator } from "./validator.test-helper.ts";

/** Alive and not a zombie waiting to be reaped. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * The pids still alive once they have had up to a minute to go. The bound only detects processes
 * that are never killed: on a busy machine, reaping a killed process can take seconds.
 */
async function waitUntilGone(pids: readonly number[]): Promise<number[]> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return pids.filter(isAlive);
}

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "climpt-validator-"));
});
afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
});

describe("successWhen", () => {
  it("empty: passes on whitespace or colour codes only, fails on any output", async () => {
    expect((await runValidator(validator("printf '  \\n\\n'", "empty"), { cwd })).passed).toBe(
      true,
    );
    expect((await runValidator(validator("printf '\\033[0m\\n'", "empty"), { cwd })).passed).toBe(
      true,
    );
    const dirty = await runValidator(validator("echo ' M a.txt'", "empty"), { cwd });
    expect(dirty.passed).toBe(false);
    expect(dirty.recoverable).toBe(true);
    expect(dirty.error).toBeUndefined();
  });

  it("empty: stderr does not count, but a failed command does not pass", async () => {
    const warned = await runValidator(validator("echo warning >&2", "empty"), { cwd });
    expect(warned.passed).toBe(true);
    const failed = await runValidator(validator("echo error >&2; exit 1", "empty"), { cwd });
    expect(failed).toMatchObject({ passed: false, exitCode: 1, recoverable: true });
  });

  it("exitCode:N compares the exit code", async () => {
    expect((await runValidator(validator("exit 3", "exitCode:3"), { cwd })).passed).toBe(true);
    const result = await runValidator(validator("exit 3", "exitCode:0"), { cwd });
    expect(result).toMatchObject({ passed: false, exitCode: 3, recoverable: true });
  });

  it("contains:S searches stdout and stderr", async () => {
    const onStderr = validator("echo 'Tests: 4 passed' >&2", "contains:4 passed");
    expect((await runValidator(onStderr, { cwd })).passed).toBe(true);
    const missing = validator("echo 'Tests: 3 passed, 1 failed'", "contains:4 passed");
    expect((await runValidator(missing, { cwd })).passed).toBe(false);
  });

  it("matches:RE matches line by line over stdout and stderr", async () => {
    const check = validator("echo noise; echo ok >&2", "matches:^ok$");
    expect((await runValidator(check, { cwd })).passed).toBe(true);
    const miss = validator("echo not ok", "matches:^ok$");
    expect((await runValidator(miss, { cwd })).passed).toBe(false);
  });

  it("matches: a pattern that does not compile is a coded, unrecoverable error", async () => {
    const broken = validator("echo x", "empty", {
      successWhen: "matches:(",
      success: { kind: "matches", pattern: "(" },
    });
    const result = await runValidator(broken, { cwd });
    expect(result).toMatchObject({ passed: false, recoverable: false });
    expect(result.error?.code).toBe("SR-VALID-004");
  });
});

describe("params in the command", () => {
  it("fills placeholders with quoted params and reports the rendered command", async () => {
    const result = await runValidator(validator("printf '%s|' ${files} ${name}", "exitCode:0"), {
      cwd,
      params: { files: ["a b.txt", "c.txt"], name: "x'y" },
    });
    expect(result.command).toBe("printf '%s|' 'a b.txt' 'c.txt' 'x'\\''y'");
    expect(result.stdout).toBe("a b.txt|c.txt|x'y|");
  });

  it("keeps an injection attempt a literal argument", async () => {
    const attempt = "; touch pwned; echo $(touch pwned2) `touch pwned3`";
    const result = await runValidator(validator("printf '%s' ${message}", "exitCode:0"), {
      cwd,
      params: { message: attempt },
    });
    expect(result.stdout).toBe(attempt);
    for (const file of ["pwned", "pwned2", "pwned3"])
      expect(existsSync(join(cwd, file))).toBe(false);
    const rmAttempt = await runValidator(validator("printf '%s' ${message}", "exitCode:0"), {
      cwd,
      params: { message: "; rm -rf /" },
    });
    expect(rmAttempt.stdout).toBe("; rm -rf /");
  });

  it("does not run a command with a missing param", async () => {
    const result = await runValidator(validator("touch ran; rm -rf ${dir}/build", "exitCode:0"), {
      cwd,
    });
    expect(result).toMatchObject({ passed: false, recoverable: false, exitCode: null });
    expect(result.error?.code).toBe("SR-VALID-101");
    expect(result.error?.message).toContain("${dir}");
    expect(existsSync(join(cwd, "ran"))).toBe(false);
  });
});

describe("processes", () => {
  it("runs in the working directory with sh", async () => {
    writeFileSync(join(cwd, "marker.txt"), "here");
    const result = await runValidator(validator("cat marker.txt", "contains:here"), { cwd });
    expect(result.passed).toBe(true);
  });

  it("a timeout kills the command and everything it started, and is recoverable", async () => {
    const command = "sleep 1000 & echo $! > pids; sleep 1000 & echo $! >> pids; wait";
    // The timeout must leave the shell time to start both sleeps and write their pids, which on a
    // busy machine takes far longer than it does alone; after that, only the timeout ends it.
    const result = await runValidator(validator(command, "exitCode:0"), {
      cwd,
      timeoutMs: 3000,
      killGraceMs: 500,
    });
    expect(result).toMatchObject({
      passed: false,
      timedOut: true,
      recoverable: true,
      exitCode: null,
    });
    expect(result.error?.code).toBe("SR-VALID-105");
    expect(result.signal).toBeDefined();
    const pids = readFileSync(join(cwd, "pids"), "utf8").trim().split("\n").map(Number);
    expect(pids).toHaveLength(2);
    expect(await waitUntilGone(pids)).toEqual([]);
  });

  it("the validator's own timeoutMs wins over the caller's default", async () => {
    const declared = validator("sleep 1000", "exitCode:0", { timeoutMs: 300 });
    const result = await runValidator(declared, { cwd, timeoutMs: 60_000, killGraceMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.error?.message).toContain("300 ms");
  });

  it("the literal `sleep 1000 & sleep 1000` leaves no sleep behind", async () => {
    const before = new Set(sleepers());
    const result = await runValidator(validator("sleep 1000 & sleep 1000", "exitCode:0"), {
      cwd,
      timeoutMs: 300,
      killGraceMs: 300,
    });
    expect(result.timedOut).toBe(true);
    const leaked = sleepers().filter((pid) => !before.has(pid));
    expect(await waitUntilGone(leaked)).toEqual([]);
  });

  it("a TERM-ignoring command is killed after the grace period", async () => {
    const command = "trap '' TERM; echo $$ > pid; while :; do sleep 0.05; done";
    // Room for the shell to set its trap and write its pid before the timeout, even when busy.
    const result = await runValidator(validator(command, "exitCode:0"), {
      cwd,
      timeoutMs: 3000,
      killGraceMs: 300,
    });
    expect(result.timedOut).toBe(true);
    const pid = Number(readFileSync(join(cwd, "pid"), "utf8"));
    expect(await waitUntilGone([pid])).toEqual([]);
  });

  it("what the command leaves running in the background is stopped when it exits", async () => {
    const result = await runValidator(
      validator("sleep 1000 & echo $! > pid; echo done", "contains:done"),
      {
        cwd,
      },
    );
    expect(result).toMatchObject({ passed: true, timedOut: false });
    const pid = Number(readFileSync(join(cwd, "pid"), "utf8"));
    expect(await waitUntilGone([pid])).toEqual([]);
  });

  it("a process that left the group cannot keep the validator waiting on its pipes", async () => {
    // The command waits for the escaped process to write its pid (not a fixed time, which a busy
    // machine can outlast), then exits while that process still holds the pipes.
    const command =
      "setsid sh -c 'echo $$ > escaped.tmp && mv escaped.tmp escaped.pid; exec sleep 1000' & " +
      "while [ ! -f escaped.pid ]; do sleep 0.01; done; echo done";
    const result = await runValidator(validator(command, "contains:done"), {
      cwd,
      killGraceMs: 300,
    });
    const escaped = Number(readFileSync(join(cwd, "escaped.pid"), "utf8"));
    try {
      expect(result).toMatchObject({ passed: true, timedOut: false });
    } finally {
      process.kill(escaped, "SIGKILL");
    }
  });

  it("a missing command (127) is not recoverable, even for `empty`", async () => {
    const result = await runValidator(validator("climpt-no-such-tool --porcelain", "empty"), {
      cwd,
    });
    expect(result).toMatchObject({ passed: false, exitCode: 127, recoverable: false });
    expect(result.error?.code).toBe("SR-VALID-103");
    expect(result.stderr).toContain("not found");
  });

  it("a command without execute permission (126) is not recoverable", async () => {
    writeFileSync(join(cwd, "check.sh"), "#!/bin/sh\nexit 0\n");
    chmodSync(join(cwd, "check.sh"), 0o644);
    const result = await runValidator(validator("./check.sh", "exitCode:0"), { cwd });
    expect(result).toMatchObject({ passed: false, exitCode: 126, recoverable: false });
    expect(result.error?.code).toBe("SR-VALID-104");
  });

  it("exitCode:127 may be asked for explicitly", async () => {
    const result = await runValidator(validator("climpt-no-such-tool", "exitCode:127"), { cwd });
    expect(result.passed).toBe(true);
  });

  it("a working directory that does not exist is a coded error, not a throw", async () => {
    const result = await runValidator(validator("true", "exitCode:0"), {
      cwd: join(cwd, "missing"),
    });
    expect(result).toMatchObject({ passed: false, recoverable: false, exitCode: null });
    expect(result.error?.code).toBe("SR-VALID-106");
  });

  it("no sh on PATH is a coded error, not a throw", async () => {
    const result = await runValidator(validator("true", "exitCode:0"), {
      cwd,
      env: { PATH: join(cwd, "empty-bin") },
    });
    expect(result).toMatchObject({ passed: false, recoverable: false, exitCode: null });
    expect(result.error?.code).toBe("SR-VALID-106");
  });

  it("caps the captured output and keeps both ends, without stopping the command", async () => {
    const command = "echo FIRST; head -c 300000 /dev/zero | tr '\\0' a; echo; echo LAST";
    const result = await runValidator(validator(command, "exitCode:0"), {
      cwd,
      outputCapBytes: 2000,
    });
    expect(result).toMatchObject({ passed: true, truncated: true, exitCode: 0 });
    expect(result.stdout.startsWith("FIRST\n")).toBe(true);
    expect(result.stdout.trimEnd().endsWith("LAST")).toBe(true);
    expect(result.stdout).toMatch(/bytes of output omitted/);
    expect(result.stdout.length).toBeLessThan(2200);
  });

  it("an aborted run stops the command and is not recoverable", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await runValidator(validator("sleep 1000", "exitCode:0"), {
      cwd,
      signal: controller.signal,
      killGraceMs: 200,
    });
    expect(result).toMatchObject({ passed: false, recoverable: false, timedOut: false });
    expect(result.error?.code).toBe("SR-VALID-107");
  });

  it("passes extra env, and withholds the model's API key unless given", async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = "sk-secret";
    try {
      const result = await runValidator(
        validator('printf "%s %s" "$CLIMPT_X" "${ANTHROPIC_API_KEY-unset}"', "exitCode:0"),
        { cwd, env: { CLIMPT_X: "1" } },
      );
      expect(result.stdout).toBe("1 unset");
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
  });

  it("does not let the command read the runner's stdin", async () => {
    const result = await runValidator(validator("cat", "empty"), { cwd, timeoutMs: 5000 });
    expect(result).toMatchObject({ passed: true, timedOut: false });
  });
});

describe("extraction", () => {
  function git(...args: string[]): void {
    execFileSync("git", args, {
      cwd,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@example.invalid",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@example.invalid",
      },
      stdio: "ignore",
    });
  }

  const gitClean = validator("git status --porcelain", "empty", {
    id: "git-clean",
    failurePattern: "git-dirty",
    extractParams: {
      changedFiles: "parseChangedFiles",
      untrackedFiles: "parseUntrackedFiles",
      diff: "generateDiff",
    },
  });

  it("a dirty repository fails git-clean and the changed files are extracted", async () => {
    git("init", "-q");
    writeFileSync(join(cwd, "tracked.txt"), "one\n");
    git("add", "tracked.txt");
    git("commit", "-q", "-m", "init");
    writeFileSync(join(cwd, "tracked.txt"), "two\n");
    writeFileSync(join(cwd, "new file.ts"), "x\n");
    const result = await runValidator(gitClean, { cwd });
    expect(result).toMatchObject({ passed: false, failurePattern: "git-dirty", recoverable: true });
    expect(result.extracted.changedFiles).toEqual(["tracked.txt", "new file.ts"]);
    expect(result.extracted.untrackedFiles).toEqual(["new file.ts"]);
    expect(result.extracted.diff).toContain("-one\n+two");
  });

  it("a clean repository passes", async () => {
    git("init", "-q");
    writeFileSync(join(cwd, "tracked.txt"), "one\n");
    git("add", "tracked.txt");
    git("commit", "-q", "-m", "init");
    const result = await runValidator(gitClean, { cwd });
    expect(result).toMatchObject({ passed: true, exitCode: 0 });
    expect(result.extracted).toEqual({ changedFiles: [], untrackedFiles: [], diff: "" });
  });

  it("outside a repository git-clean fails: git exits 128 with nothing on stdout", async () => {
    const result = await runValidator(gitClean, { cwd, env: { GIT_CEILING_DIRECTORIES: cwd } });
    expect(result).toMatchObject({ passed: false, exitCode: 128, stdout: "" });
    expect(result.stderr).toMatch(/not a git repository/);
    expect(result.extracted.diff).toBe("");
  });

  it("an unknown extractor stops the validator before it runs", async () => {
    const bad = validator("touch ran", "exitCode:0", {
      extractParams: { files: "parseEverything" },
    });
    const result = await runValidator(bad, { cwd });
    expect(result).toMatchObject({ passed: false, recoverable: false });
    expect(result.error?.code).toBe("SR-VALID-108");
    expect(result.error?.message).toContain("parseEverything");
    expect(existsSync(join(cwd, "ran"))).toBe(false);
  });

  it("parses a real tsc-style failure into type errors", async () => {
    const command = "printf \"src/a.ts(2,5): error TS2304: Cannot find name 'x'.\\n\"; exit 2";
    const result = await runValidator(
      validator(command, "exitCode:0", {
        extractParams: { errors: "parseTypeErrors", code: "exitCode" },
      }),
      { cwd },
    );
    expect(result.extracted).toEqual({
      errors: [
        { file: "src/a.ts", line: 2, column: 5, code: "TS2304", message: "Cannot find name 'x'." },
      ],
      code: 2,
    });
  });
});

/** Live `sleep` processes, from /proc (no procps needed). */
function sleepers(): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "sleep";
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter(isAlive);
}
