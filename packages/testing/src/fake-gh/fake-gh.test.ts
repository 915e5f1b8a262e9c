import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type FakeGh, type FakeGhSeed, installFakeGh } from "./install-fake-gh.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 5 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

interface GhRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const installed: FakeGh[] = [];
afterEach(() => {
  for (const fake of installed.splice(0)) fake.remove();
});

function install(seed: FakeGhSeed = {}): FakeGh {
  const fake = installFakeGh(seed);
  installed.push(fake);
  return fake;
}

/** Runs `gh` by name, found through the PATH the fake returns, as a process under test would. */
function gh(
  fake: FakeGh,
  args: readonly string[],
  options: { input?: string; env?: Record<string, string>; cwd?: string } = {},
): Promise<GhRun> {
  return new Promise((resolve) => {
    const child = execFile(
      "gh",
      [...args],
      {
        env: { ...process.env, ...fake.env, ...options.env },
        cwd: options.cwd ?? fake.dir,
        encoding: "utf8",
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

const WORKFLOW_SEED: FakeGhSeed = {
  repo: "acme/widgets",
  labels: [
    { name: "kind:impl", color: "a2eeef", description: "Implementation" },
    { name: "kind:review", color: "fbca04", description: "Review" },
    "done",
  ],
  issues: [
    { title: "Add a flag", labels: ["kind:impl", "bug"] },
    { title: "Review the parser", labels: ["kind:review"] },
    { title: "Old one", labels: ["kind:impl"], state: "CLOSED" },
  ],
};

describe("the fake gh: issues", () => {
  it("lists issues newest first, filtered by state and by every label given, with the JSON fields asked for", async () => {
    const fake = install(WORKFLOW_SEED);
    const open = await gh(fake, ["issue", "list", "--json", "number,title,state"]);
    expect(open.code).toBe(0);
    expect(JSON.parse(open.stdout)).toEqual([
      { number: 2, title: "Review the parser", state: "OPEN" },
      { number: 1, title: "Add a flag", state: "OPEN" },
    ]);
    const impl = await gh(fake, [
      "issue",
      "list",
      "--state",
      "all",
      "-l",
      "KIND:IMPL",
      "--json",
      "number,labels",
    ]);
    expect(JSON.parse(impl.stdout).map((issue: { number: number }) => issue.number)).toEqual([
      3, 1,
    ]);
    expect(JSON.parse(impl.stdout)[1].labels).toEqual([
      {
        id: "LA_fake_kind%3Aimpl",
        name: "kind:impl",
        description: "Implementation",
        color: "a2eeef",
      },
      { id: "LA_fake_bug", name: "bug", description: "", color: "ededed" },
    ]);
    const both = await gh(fake, ["issue", "list", "--label", "kind:impl,bug", "--json", "number"]);
    expect(JSON.parse(both.stdout)).toEqual([{ number: 1 }]);
    const limited = await gh(fake, ["issue", "list", "--limit", "1", "--json", "number"]);
    expect(JSON.parse(limited.stdout)).toEqual([{ number: 2 }]);
  });

  it("refuses an unknown JSON field the way gh does, listing the fields it has", async () => {
    const fake = install(WORKFLOW_SEED);
    const run = await gh(fake, ["issue", "view", "1", "--json", "labels,colour"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Unknown JSON field: "colour"');
    expect(run.stderr).toContain("  stateReason");
  });

  it("changes labels in one edit: adds and removes together, case-insensitively, and a missing label fails the whole edit", async () => {
    const fake = install(WORKFLOW_SEED);
    const edit = await gh(fake, [
      "issue",
      "edit",
      "1",
      "--add-label",
      "KIND:REVIEW",
      "--remove-label",
      "kind:impl",
    ]);
    expect(edit.code).toBe(0);
    expect(edit.stdout).toBe("https://github.com/acme/widgets/issues/1\n");
    expect(fake.issue(1)?.labels).toEqual(["bug", "kind:review"]);

    const missing = await gh(fake, [
      "issue",
      "edit",
      "1",
      "--add-label",
      "done,not-in-repo",
      "--remove-label",
      "bug",
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("could not add label: 'not-in-repo' not found\n");
    expect(fake.issue(1)?.labels).toEqual(["bug", "kind:review"]);
    expect(fake.calls().map((call) => [call.argv.slice(0, 3).join(" "), call.exitCode])).toEqual([
      ["issue edit 1", 0],
      ["issue edit 1", 1],
    ]);
  });

  it("reads an issue's state and labels as the boundary hook's poll does, and filters it with --jq", async () => {
    const fake = install(WORKFLOW_SEED);
    const view = await gh(fake, ["issue", "view", "3", "--json", "state,labels"]);
    expect(JSON.parse(view.stdout)).toMatchObject({
      state: "CLOSED",
      labels: [{ name: "kind:impl" }],
    });
    const names = await gh(fake, [
      "issue",
      "view",
      "#1",
      "--json",
      "labels",
      "--jq",
      ".labels[].name",
    ]);
    expect(names.stdout).toBe("kind:impl\nbug\n");
    const noJson = await gh(fake, ["issue", "view", "1", "--jq", ".title"]);
    expect(noJson.code).toBe(1);
    expect(noJson.stderr).toContain("cannot use `--jq` without specifying `--json`");
  });

  it("closes with a comment, says so when the issue is already closed, and reopens", async () => {
    const fake = install(WORKFLOW_SEED);
    const close = await gh(fake, ["issue", "close", "1", "--comment", "Done in #7."]);
    expect(close.code).toBe(0);
    expect(close.stderr).toBe("✓ Closed issue #1 (Add a flag)\n");
    expect(fake.issue(1)).toMatchObject({
      state: "CLOSED",
      stateReason: "COMPLETED",
      comments: [{ body: "Done in #7.", author: "climpt-bot" }],
    });
    const again = await gh(fake, ["issue", "close", "1"]);
    expect(again).toMatchObject({ code: 0, stderr: "! Issue #1 (Add a flag) is already closed\n" });
    const reopen = await gh(fake, ["issue", "reopen", "1"]);
    expect(reopen.code).toBe(0);
    expect(fake.issue(1)?.state).toBe("OPEN");
  });

  it("comments from --body, from a file and from stdin, and shows them with --comments", async () => {
    const fake = install(WORKFLOW_SEED);
    writeFileSync(path.join(fake.dir, "reply.md"), "From a file.");
    expect((await gh(fake, ["issue", "comment", "2", "--body", "Inline."])).stdout).toBe(
      "https://github.com/acme/widgets/issues/2#issuecomment-1\n",
    );
    await gh(fake, ["issue", "comment", "2", "-F", "reply.md"]);
    await gh(fake, ["issue", "comment", "2", "--body-file", "-"], { input: "From stdin." });
    expect(fake.issue(2)?.comments.map((comment) => comment.body)).toEqual([
      "Inline.",
      "From a file.",
      "From stdin.",
    ]);
    const shown = await gh(fake, ["issue", "view", "2", "--comments"]);
    expect(shown.stdout).toContain("--\nFrom stdin.\n--\n");
    const empty = await gh(fake, ["issue", "comment", "2"]);
    expect(empty.code).toBe(1);
    expect(fake.issue(2)?.comments).toHaveLength(3);
  });

  it("creates issues with the next number and existing labels only", async () => {
    const fake = install(WORKFLOW_SEED);
    const created = await gh(fake, ["issue", "create", "-t", "New", "-b", "Body", "-l", "done"]);
    expect(created.stdout).toBe("https://github.com/acme/widgets/issues/4\n");
    expect(fake.issue(4)).toMatchObject({
      title: "New",
      body: "Body",
      labels: ["done"],
      state: "OPEN",
    });
    const bad = await gh(fake, ["issue", "create", "-t", "X", "-b", "", "-l", "nope"]);
    expect(bad.code).toBe(1);
    expect(fake.state().repos["acme/widgets"]?.issues).toHaveLength(4);
  });

  it("reports a missing issue with gh's GraphQL message", async () => {
    const fake = install(WORKFLOW_SEED);
    const run = await gh(fake, ["issue", "view", "99", "--json", "state"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "Could not resolve to an issue or pull request with the number of 99",
    );
  });
});

describe("the fake gh: labels", () => {
  it("creates, refuses a duplicate without --force, updates with --force or edit, lists and deletes", async () => {
    const fake = install({ issues: [{ title: "t", labels: ["old"] }] });
    expect(
      (await gh(fake, ["label", "create", "kind:impl", "--color", "#A2EEEF", "-d", "Impl"])).code,
    ).toBe(0);
    const duplicate = await gh(fake, ["label", "create", "KIND:IMPL", "--color", "000000"]);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("already exists; use `--force`");
    expect((await gh(fake, ["label", "create", "kind:impl", "-c", "111111", "--force"])).code).toBe(
      0,
    );
    expect(
      (await gh(fake, ["label", "edit", "kind:impl", "--description", "Implementation"])).code,
    ).toBe(0);
    const listed = await gh(fake, [
      "label",
      "list",
      "--json",
      "name,color,description",
      "--limit",
      "100",
    ]);
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: "old", color: "ededed", description: "" },
      { name: "kind:impl", color: "111111", description: "Implementation" },
    ]);
    const badColor = await gh(fake, ["label", "edit", "kind:impl", "--color", "red"]);
    expect(badColor.code).toBe(1);
    expect((await gh(fake, ["label", "edit", "missing", "-d", "x"])).stderr).toContain("HTTP 404");
    expect((await gh(fake, ["label", "delete", "old"])).code).toBe(1);
    expect((await gh(fake, ["label", "delete", "old", "--yes"])).code).toBe(0);
    expect(fake.issue(1)?.labels).toEqual([]);
  });
});

describe("the fake gh: pull requests", () => {
  it("creates one per head branch, lists, views by number or branch, and merges once", async () => {
    const fake = install();
    const created = await gh(fake, [
      "pr",
      "create",
      "--title",
      "Fix #1",
      "--body",
      "Closes #1",
      "--head",
      "climpt/issue-1",
    ]);
    expect(created.stdout).toBe("https://github.com/climpt-test/sample/pull/1\n");
    const twice = await gh(fake, ["pr", "create", "-t", "x", "-b", "y", "-H", "climpt/issue-1"]);
    expect(twice.code).toBe(1);
    const byBranch = await gh(fake, [
      "pr",
      "view",
      "climpt/issue-1",
      "--json",
      "number,state,baseRefName",
    ]);
    expect(JSON.parse(byBranch.stdout)).toEqual({ number: 1, state: "OPEN", baseRefName: "main" });
    expect((await gh(fake, ["pr", "merge", "1"])).code).toBe(1);
    expect((await gh(fake, ["pr", "merge", "1", "--squash", "--delete-branch"])).code).toBe(0);
    expect((await gh(fake, ["pr", "merge", "1", "--merge"])).stderr).toContain("already merged");
    const merged = await gh(fake, ["pr", "list", "--state", "merged", "--json", "number,mergedAt"]);
    expect(JSON.parse(merged.stdout)).toHaveLength(1);
  });
});

describe("the fake gh: gh api", () => {
  it("reads flags as pflag does: joined (-XPATCH, -fstate=closed), grouped (-iX), --flag=value", async () => {
    const fake = install({
      ...WORKFLOW_SEED,
      repos: { "other/repo": { issues: [{ title: "x" }] } },
    });
    const joined = await gh(fake, [
      "api",
      "-XPATCH",
      "repos/acme/widgets/issues/1",
      "-fstate=closed",
    ]);
    expect(joined.code, joined.stderr).toBe(0);
    expect(JSON.parse(joined.stdout)).toMatchObject({ number: 1, state: "closed" });
    expect(fake.issue(1)?.state).toBe("CLOSED");
    const grouped = await gh(fake, [
      "api",
      "-iXPATCH",
      "repos/{owner}/{repo}/issues/2",
      "--raw-field=state=closed",
    ]);
    expect(grouped.code, grouped.stderr).toBe(0);
    expect(fake.issue(2)?.state).toBe("CLOSED");
    // Fields alone make it a POST; -F types its values; another repository by its path.
    const comment = await gh(fake, ["api", "repos/other/repo/issues/1/comments", "-F", "body=42"]);
    expect(comment.code, comment.stderr).toBe(0);
    expect(fake.issue(1, "other/repo")?.comments.map((c) => c.body)).toEqual(["42"]);
    expect(fake.state().repos["acme/widgets"]?.apiWrites?.map((w) => w.method)).toEqual([
      "PATCH",
      "PATCH",
    ]);
  });

  it("reads @file fields and --input files where it runs, and runs --jq with its own environment", async () => {
    const fake = install(WORKFLOW_SEED);
    writeFileSync(path.join(fake.dir, "body.txt"), "from a file");
    writeFileSync(path.join(fake.dir, "patch.json"), '{"state":"closed"}');
    const fromFile = await gh(fake, [
      "api",
      "repos/acme/widgets/issues/2/comments",
      "-Fbody=@body.txt",
    ]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fake.issue(2)?.comments.map((c) => c.body)).toEqual(["from a file"]);
    const input = await gh(fake, [
      "api",
      "-X",
      "PATCH",
      "repos/acme/widgets/issues/1",
      "--input",
      "patch.json",
    ]);
    expect(input.code, input.stderr).toBe(0);
    expect(fake.issue(1)?.state).toBe("CLOSED");
    const token = await gh(fake, ["api", "user", "-q$ENV.FAKE_TOKEN"], {
      env: { FAKE_TOKEN: "t0ken-value" },
    });
    expect(token).toMatchObject({ code: 0, stdout: "t0ken-value\n" });
    const login = await gh(fake, ["api", "user", "--jq", ".login"]);
    expect(login.stdout).toBe("climpt-bot\n");
  });

  it("merges a pull request, logs ref, merge and release writes, and answers 404 for the rest", async () => {
    const fake = install(WORKFLOW_SEED);
    fake.update((state) => {
      state.repos["acme/widgets"]?.pullRequests.push({
        number: 9,
        title: "PR",
        body: "",
        state: "OPEN",
        headRefName: "feature",
        baseRefName: "main",
        labels: [],
        author: "climpt-bot",
        createdAt: "2026-01-01T00:00:00Z",
        mergedAt: null,
      });
    });
    expect((await gh(fake, ["api", "-XPUT", "repos/acme/widgets/pulls/9/merge"])).code).toBe(0);
    expect(fake.state().repos["acme/widgets"]?.pullRequests[0]?.state).toBe("MERGED");
    expect(
      (await gh(fake, ["api", "-XDELETE", "repos/acme/widgets/git/refs/heads/main"])).code,
    ).toBe(0);
    expect(
      (await gh(fake, ["api", "repos/acme/widgets/merges", "-fbase=main", "-fhead=x"])).code,
    ).toBe(0);
    expect((await gh(fake, ["api", "repos/acme/widgets/releases", "-ftag_name=v9"])).code).toBe(0);
    const writes = fake.state().repos["acme/widgets"]?.apiWrites ?? [];
    expect(writes.map((w) => `${w.method} ${w.endpoint}`)).toEqual([
      "PUT repos/acme/widgets/pulls/9/merge",
      "DELETE repos/acme/widgets/git/refs/heads/main",
      "POST repos/acme/widgets/merges",
      "POST repos/acme/widgets/releases",
    ]);
    expect(writes[3]?.body).toEqual({ tag_name: "v9" });
    const missing = await gh(fake, ["api", "repos/acme/widgets/hooks"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Not Found (HTTP 404)");
  });
});

describe("the fake gh: what it does not model, failures, and many processes at once", () => {
  it("records commit statuses per sha with their context, and refuses a state GitHub does not know", async () => {
    const fake = install(WORKFLOW_SEED);
    const sha = "a".repeat(40);
    const set = await gh(fake, [
      "api",
      `repos/{owner}/{repo}/statuses/${sha}`,
      "-f",
      "state=success",
      "-f",
      "context=climpt/verified",
      "-f",
      "description=2 validators passed",
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ state: "success", context: "climpt/verified" });
    const bad = await gh(fake, ["api", `repos/acme/widgets/statuses/${sha}`, "-f", "state=done"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("HTTP 422");
    expect(fake.state().repos["acme/widgets"]?.statuses).toEqual([
      expect.objectContaining({
        sha,
        state: "success",
        context: "climpt/verified",
        description: "2 validators passed",
        targetUrl: null,
      }),
    ]);
    expect(fake.state().repos["acme/widgets"]?.apiWrites?.map((w) => w.endpoint)).toEqual([
      `repos/acme/widgets/statuses/${sha}`,
    ]);
  });

  it("fails loudly (exit 1) on a subcommand or flag it does not model, and changes nothing", async () => {
    const fake = install(WORKFLOW_SEED);
    const gist = await gh(fake, ["gist", "list"]);
    expect(gist.code).toBe(1);
    expect(gist.stderr).toContain("`gh gist` is not modelled");
    const graphql = await gh(fake, ["api", "graphql", "-f", "query=mutation{x}"]);
    expect(graphql.code).toBe(1);
    expect(graphql.stderr).toContain("`gh api graphql` is not modelled");
    const transfer = await gh(fake, ["issue", "transfer", "1", "other"]);
    expect(transfer.code).toBe(1);
    expect(transfer.stderr).toContain("`gh issue transfer` is not modelled");
    const flag = await gh(fake, ["issue", "edit", "1", "--add-assignee", "me"]);
    expect(flag).toMatchObject({ code: 1, stderr: "unknown flag: --add-assignee\n" });
    expect(fake.issue(1)?.labels).toEqual(["kind:impl", "bug"]);
  });

  it("answers a configured failure instead of acting, once, and records it", async () => {
    const fake = install(WORKFLOW_SEED);
    fake.failNext({ command: "issue edit", number: 1, stderr: "HTTP 502: Bad Gateway" });
    const other = await gh(fake, ["issue", "edit", "2", "--add-label", "done"]);
    expect(other.code).toBe(0);
    const failed = await gh(fake, ["issue", "edit", "1", "--add-label", "done"]);
    expect(failed).toMatchObject({ code: 1, stderr: "HTTP 502: Bad Gateway\n" });
    expect(fake.issue(1)?.labels).not.toContain("done");
    const retried = await gh(fake, ["issue", "edit", "1", "--add-label", "done"]);
    expect(retried.code).toBe(0);
    expect(fake.calls().map((call) => call.injected === true)).toEqual([false, true, false]);
  });

  it("keeps every change when many gh processes write at once", async () => {
    const fake = install(WORKFLOW_SEED);
    const runs = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        gh(fake, ["issue", "comment", "1", "--body", `comment ${index}`]),
      ),
    );
    expect(runs.every((run) => run.code === 0)).toBe(true);
    const bodies = fake.issue(1)?.comments.map((comment) => comment.body) ?? [];
    expect(bodies.sort()).toEqual(
      Array.from({ length: 16 }, (_, index) => `comment ${index}`).sort(),
    );
    expect(new Set(fake.issue(1)?.comments.map((comment) => comment.id)).size).toBe(16);
  });

  it("names the repository it acts on with gh repo view", async () => {
    const fake = install(WORKFLOW_SEED);
    const view = await gh(fake, ["repo", "view", "--json", "nameWithOwner,defaultBranchRef"]);
    expect(JSON.parse(view.stdout)).toEqual({
      nameWithOwner: "acme/widgets",
      defaultBranchRef: { name: "main" },
    });
  });

  it("without --repo or GH_REPO, acts on the github.com remote of the folder it runs in, as gh does", async () => {
    const fake = install({
      ...WORKFLOW_SEED,
      repos: { "other/repo": { issues: [{ title: "x" }] } },
    });
    const repo = path.join(fake.dir, "checkout");
    mkdirSync(repo);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo });
    git("init", "-q");
    expect(
      (await gh(fake, ["repo", "view", "--json", "nameWithOwner"], { cwd: repo })).stdout,
    ).toContain("acme/widgets");
    git("remote", "add", "origin", "https://github.com/acme/widgets.git");
    git("remote", "add", "upstream", "git@github.com:other/repo.git");
    const viewed = await gh(fake, ["issue", "view", "1", "--json", "title"], { cwd: repo });
    expect(JSON.parse(viewed.stdout)).toEqual({ title: "x" });
    expect(fake.calls().at(-1)?.repo).toBe("other/repo");
    const named = await gh(fake, ["issue", "view", "1", "--json", "title", "-R", "acme/widgets"], {
      cwd: repo,
    });
    expect(JSON.parse(named.stdout)).toEqual({ title: "Add a flag" });
  });

  it("acts on another repository with --repo or GH_REPO, and on none it does not have", async () => {
    const fake = install({
      ...WORKFLOW_SEED,
      repos: { "acme/other": { issues: [{ title: "Other" }] } },
    });
    const flag = await gh(fake, ["issue", "view", "1", "--repo", "acme/other", "--json", "title"]);
    expect(JSON.parse(flag.stdout)).toEqual({ title: "Other" });
    const env = await gh(fake, ["issue", "list", "--json", "title"], {
      env: { GH_REPO: "acme/other" },
    });
    expect(JSON.parse(env.stdout)).toEqual([{ title: "Other" }]);
    const missing = await gh(fake, ["issue", "list", "-R", "acme/nope"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Could not resolve to a Repository with the name 'acme/nope'");
  });
});
