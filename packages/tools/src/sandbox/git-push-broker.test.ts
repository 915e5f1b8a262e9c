import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { toolboxFor, useTempDirs } from "../tools.test-helper.ts";
import { gitHttpServer } from "./git-http-server.test-helper.ts";
import { resolveGitPushTarget } from "./git-push-target.ts";
import { credentialHome, GH_TOKEN, repoWithRemote } from "./sandbox.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 9 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const RUN_BRANCH = "climpt/issue-7";

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.invalid",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.invalid",
    },
  });
}

/** The command run by `sh` from base64, so the Bash text filter cannot refuse it first. */
function unfiltered(command: string): string {
  return `echo ${Buffer.from(command).toString("base64")} | base64 -d | sh`;
}

const COMMIT = "echo change >> a.txt && git add a.txt && git commit -qm change";

describe("git push through the push broker", () => {
  const tempDir = useTempDirs();

  async function runRepo() {
    const dir = tempDir();
    const repo = repoWithRemote(dir);
    git(repo.work, "checkout", "-qb", RUN_BRANCH);
    const gitPush = await resolveGitPushTarget({
      cwd: repo.work,
      env: { PATH: process.env.PATH ?? "" },
    });
    return { dir, ...repo, box: toolboxFor(repo.work, { gitPush }) };
  }

  it("`git push -u origin HEAD` from a work step reaches a local bare remote, upstream set", async () => {
    const { work, remote, box } = await runRepo();
    const pushed = await box.call("Bash", { command: `${COMMIT} && git push -u origin HEAD` });
    expect(pushed.content).toContain(`HEAD -> ${RUN_BRANCH}`);
    expect(pushed.content).toContain(
      `branch '${RUN_BRANCH}' set up to track 'origin/${RUN_BRANCH}'.`,
    );
    expect(pushed.content).toMatch(/\[exit code 0\]$/);
    expect(git(remote, "rev-parse", `refs/heads/${RUN_BRANCH}`)).toBe(
      git(work, "rev-parse", "HEAD"),
    );
    const upstream = await box.call("Bash", {
      command: "git rev-parse --abbrev-ref --symbolic-full-name @{u} && git status -sb | head -1",
    });
    expect(upstream.content).toBe(
      `origin/${RUN_BRANCH}\n## ${RUN_BRANCH}...origin/${RUN_BRANCH}\n[exit code 0]`,
    );
    // A second push of new work: a fast-forward.
    const again = await box.call("Bash", { command: `${COMMIT} && git push -q` });
    expect(again.content).toBe("(no output)\n[exit code 0]");
    expect(git(remote, "rev-parse", `refs/heads/${RUN_BRANCH}`)).toBe(
      git(work, "rev-parse", "HEAD"),
    );
  });

  it("refuses forced, deleting, tag, mirror, URL and reconfigured pushes: the remote is unchanged, nothing runs on the host", async () => {
    const { dir, work, remote, refs, box } = await runRepo();
    await box.call("Bash", { command: `${COMMIT} && git push -q origin HEAD && git tag v9` });
    // Rewritten history, so that a forced push would change the remote.
    await box.call("Bash", { command: "git commit -q --amend -m rewritten" });
    const before = refs();
    const canary = path.join(dir, "canary");
    const attempts = [
      "git push --force origin HEAD",
      "git push -f",
      `git push origin +HEAD:${RUN_BRANCH}`,
      "git push --force-with-lease origin HEAD",
      `git push origin --delete ${RUN_BRANCH}`,
      `git push origin :${RUN_BRANCH}`,
      "git push origin HEAD:main",
      "git push origin HEAD:refs/heads/main",
      "git push origin v9",
      "git push origin refs/tags/v9",
      "git push --tags",
      "git push --follow-tags origin HEAD",
      "git push --mirror origin",
      "git push --all origin",
      "git push --prune origin HEAD",
      `git push --receive-pack='touch ${canary}' origin HEAD`,
      `git push --exec='touch ${canary}' origin HEAD`,
      `git -c remote.origin.receivepack='touch ${canary}' push origin HEAD`,
      `git -c protocol.ext.allow=always push 'ext::sh -c touch% ${canary}' HEAD`,
      `git push 'ext::sh -c touch% ${canary}' HEAD`,
      `git push ${remote} HEAD:${RUN_BRANCH}`,
      `git push file://${remote} HEAD`,
      `git push -o ci.skip origin HEAD`,
      `git -C .. push`,
      `git --git-dir=${path.join(work, ".git")} push`,
      `GIT_DIR=${path.join(work, ".git")} git push origin HEAD`,
    ];
    for (const attempt of attempts) {
      const result = await box.call("Bash", { command: unfiltered(attempt) });
      expect(result.content, attempt).toContain("refused by climpt's push broker");
      expect(result.isError, attempt).toBe(true);
    }
    expect(refs()).toBe(before);
    expect(git(remote, "tag", "--list")).toBe("");
    expect(existsSync(canary)).toBe(false);
  });

  it("pushes only the run's repository: a nested repository, a rewritten commondir change nothing", async () => {
    const dir = tempDir();
    const { work, remote, refs } = repoWithRemote(dir);
    const worktree = path.join(dir, "wt");
    git(work, "worktree", "add", "-q", "-b", RUN_BRANCH, worktree, "main");
    const gitPush = await resolveGitPushTarget({
      cwd: worktree,
      runBranch: RUN_BRANCH,
      baseBranch: "main",
      env: { PATH: process.env.PATH ?? "" },
    });
    const box = toolboxFor(worktree, { gitPush });
    const canary = path.join(dir, "canary");
    const before = refs();
    // A repository inside the working directory, with a remote that would run a program.
    const nested = await box.call("Bash", {
      command: `git init -q inner && cd inner && git remote add origin 'ext::sh -c touch% ${canary}' && git -c user.name=a -c user.email=a@b commit -q --allow-empty -m x && git push origin HEAD:${RUN_BRANCH}`,
    });
    expect(nested.content).toContain("inner is another git repository");
    // The worktree's commondir pointed at a copy whose config runs a program on push.
    const fake = await box.call("Bash", {
      command: [
        "rm -rf inner",
        COMMIT,
        "gitdir=$(git rev-parse --git-dir)",
        "common=$(git rev-parse --git-common-dir)",
        "mkdir fake && cp -r $common/objects $common/refs $common/HEAD fake/",
        `printf '[core]\\n\\trepositoryformatversion = 0\\n[remote "origin"]\\n\\turl = ${remote}\\n\\treceivepack = touch ${canary}\\n' > fake/config`,
        `echo ${path.join(worktree, "fake")} > $gitdir/commondir`,
        "git push origin HEAD",
      ].join(" && "),
    });
    expect(existsSync(canary)).toBe(false);
    expect(fake.content).toContain(`* [new branch]      HEAD -> ${RUN_BRANCH}`);
    // The base branch stays where it was.
    const base = await box.call("Bash", { command: unfiltered("git push origin HEAD:main") });
    expect(base.content).toContain("`main` is protected");
    expect(
      refs()
        .split("\n")
        .filter((line) => line.endsWith("refs/heads/main")),
    ).toEqual(before.split("\n").filter((line) => line.endsWith("refs/heads/main")));
  });

  it("pushes over https with the host's credential, which the sandbox and the result never see", async () => {
    const dir = tempDir();
    const projects = path.join(dir, "projects");
    mkdirSync(projects);
    git(dir, "init", "-q", "--bare", "-b", "main", path.join(projects, "remote.git"));
    const server = await gitHttpServer(projects, GH_TOKEN);
    try {
      const home = credentialHome(dir);
      // gh's way (`gh auth setup-git`): a credential helper that answers with GH_TOKEN.
      writeFileSync(
        path.join(home, ".gitconfig"),
        `[user]\n\tname = Host User\n\temail = host@example.invalid\n[credential]\n\thelper = "!f() { test \\"$1\\" = get && echo username=x && echo password=$GH_TOKEN; }; f"\n`,
      );
      const work = path.join(dir, "work");
      mkdirSync(work);
      git(work, "init", "-q", "-b", RUN_BRANCH);
      writeFileSync(path.join(work, "README.md"), "hello\n");
      git(work, "add", ".");
      git(work, "commit", "-qm", "first");
      git(work, "remote", "add", "origin", `${server.url}remote.git`);
      const env = { HOME: home, GH_TOKEN, PATH: process.env.PATH ?? "" };
      const gitPush = await resolveGitPushTarget({ cwd: work, env });
      const box = toolboxFor(work, { env, gitPush });
      const result = await box.call("Bash", {
        command: [
          "git push -u origin HEAD",
          "env",
          "cat ~/.gitconfig ~/.git-credentials 2>&1",
          "git config --list",
        ].join("; "),
      });
      expect(result.content).toContain(`HEAD -> ${RUN_BRANCH}`);
      expect(result.content).not.toContain(GH_TOKEN);
      expect(result.content).not.toContain("[REDACTED");
      expect(result.content).not.toMatch(/^GH_TOKEN=/m);
      expect(box.events.map((event) => JSON.stringify(event)).join("\n")).not.toContain(GH_TOKEN);
      expect(server.unauthorized()).toBeGreaterThan(0);
      expect(git(path.join(projects, "remote.git"), "rev-parse", `refs/heads/${RUN_BRANCH}`)).toBe(
        git(work, "rev-parse", "HEAD"),
      );
      // The sandbox's own git, called past the shim, gets nowhere: no network, no credential.
      const direct = await box.call("Bash", {
        command: `${COMMIT}; PATH=\${PATH#*:} git push origin HEAD:direct 2>&1 | tail -1`,
      });
      expect(direct.content).toMatch(
        /unable to access|Could not resolve|Couldn't connect|could not read/,
      );
      expect(direct.content).not.toContain("HEAD -> direct");
      expect(git(path.join(projects, "remote.git"), "branch", "--list", "direct")).toBe("");
    } finally {
      await server.close();
    }
  });

  it("refuses every push where the run gave no push target, and leaves nothing behind", async () => {
    const dir = tempDir();
    const { work, refs } = repoWithRemote(dir);
    const before = refs();
    const box = toolboxFor(work);
    const result = await box.call("Bash", {
      command: "git checkout -qb x && git push -u origin HEAD",
    });
    expect(result.content).toContain(
      "refused by climpt's push broker: git push is not available here",
    );
    expect(refs()).toBe(before);
    expect(readdirSync(work).sort()).toEqual([".git", "README.md", "a.txt"]);
  });
});
