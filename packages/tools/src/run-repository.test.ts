import { execFileSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hostGhEnv, resolveRunRepository } from "./run-repository.ts";
import { useTempDirs } from "./tools.test-helper.ts";

/** A gh that prints `stdout` and exits with `code`, logging its folder and what git reads. */
function stubGh(dir: string, stdout: string, code = 0): { gh: string; log: () => string } {
  const gh = path.join(dir, "gh");
  const log = path.join(dir, "gh.log");
  writeFileSync(
    gh,
    [
      "#!/bin/sh",
      `printf '%s\\n' "$PWD $*" >> "${log}"`,
      // What every git gh runs would read, as git sees it.
      `git config --get core.fsmonitor >> "${log}"`,
      `git config --get core.hooksPath >> "${log}"`,
      `printf '%s' '${stdout}'`,
      code === 0
        ? ""
        : `echo 'none of the git remotes point to a known GitHub host' >&2; exit ${code}`,
    ].join("\n"),
  );
  chmodSync(gh, 0o755);
  return { gh, log: () => readFileSync(log, "utf8") };
}

describe("resolveRunRepository", () => {
  const tempDir = useTempDirs();

  it("takes the caller's GH_REPO first, as gh does, without running gh", async () => {
    const dir = tempDir();
    const gh = path.join(dir, "missing-gh");
    expect(
      await resolveRunRepository({ ghCommand: gh, env: { GH_REPO: "Octo/Repo" }, cwd: dir }),
    ).toEqual({ known: true, name: "octo/repo" });
    expect(
      await resolveRunRepository({ ghCommand: gh, env: { GH_REPO: "ghe.example/o/r" }, cwd: dir }),
    ).toEqual({
      known: false,
      reason: 'GH_REPO is "ghe.example/o/r", which is not OWNER/REPO on github.com.',
    });
  });

  it("asks gh repo view in the working directory, with git settings the repository cannot override", async () => {
    const dir = tempDir();
    execFileSync("git", ["init", "-q", dir]);
    // A repository that would run a program on every git status gh might do.
    execFileSync("git", ["-C", dir, "config", "core.fsmonitor", "touch pwned"]);
    const stub = stubGh(dir, '{"nameWithOwner":"O/R"}');
    expect(
      await resolveRunRepository({
        ghCommand: stub.gh,
        env: { PATH: process.env.PATH ?? "", GIT_DIR: "/elsewhere" },
        cwd: dir,
      }),
    ).toEqual({ known: true, name: "o/r" });
    expect(stub.log()).toBe(`${dir} repo view --json nameWithOwner\nfalse\n/dev/null\n`);
  });

  it("is unknown, saying why, when gh fails, answers nothing usable or is missing", async () => {
    const dir = tempDir();
    const failing = stubGh(dir, "", 1);
    expect(await resolveRunRepository({ ghCommand: failing.gh, env: {}, cwd: dir })).toEqual({
      known: false,
      reason:
        "`gh repo view` in the working directory failed: none of the git remotes point to a known GitHub host",
    });
    const other = tempDir();
    const enterprise = stubGh(other, '{"nameWithOwner":"ghe.example/o/r"}');
    expect(await resolveRunRepository({ ghCommand: enterprise.gh, env: {}, cwd: other })).toEqual({
      known: false,
      reason: "`gh repo view` in the working directory named no OWNER/REPO on github.com.",
    });
    const missing = await resolveRunRepository({
      ghCommand: path.join(dir, "no-such-gh"),
      env: {},
      cwd: dir,
    });
    expect(missing).toMatchObject({ known: false, reason: expect.stringContaining("no-such-gh") });
  });
});

describe("hostGhEnv", () => {
  it("is host git's settings over the caller's environment, without what redirects git", () => {
    const env = hostGhEnv({
      PATH: "/bin",
      GH_TOKEN: "t",
      GIT_DIR: "/x",
      GIT_COMMON_DIR: "/y",
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "core.fsmonitor",
      GIT_CONFIG_VALUE_0: "touch pwned",
    });
    expect(env.GIT_DIR).toBeUndefined();
    expect(env.GIT_COMMON_DIR).toBeUndefined();
    const settings = Object.fromEntries(
      Array.from({ length: Number(env.GIT_CONFIG_COUNT) }, (_, i) => [
        env[`GIT_CONFIG_KEY_${i}`],
        env[`GIT_CONFIG_VALUE_${i}`],
      ]),
    );
    expect(settings).toMatchObject({ "core.fsmonitor": "false", "core.hooksPath": "/dev/null" });
    expect(env).toMatchObject({ PATH: "/bin", GH_TOKEN: "t", GIT_TERMINAL_PROMPT: "0" });
  });
});
