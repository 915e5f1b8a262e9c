import { describe, expect, it } from "vitest";
import { decideGh } from "./gh-policy.ts";

const split = (command: string): string[] => command.split(" ").filter((word) => word !== "");

describe("decideGh", () => {
  it("runs read-only calls and comments in every step kind", () => {
    for (const kind of ["work", "verification", "closure", "section"] as const) {
      for (const command of [
        "issue view 12",
        "issue view 12 --json title,body",
        "issue list --state open --label bug",
        "pr diff 3",
        "pr checks 3",
        "-R o/r pr view 3 --comments",
        "repo view",
        "release list",
        "search issues flaky",
        "status",
        "api repos/o/r/issues/1",
        "api -X GET repos/o/r/pulls",
        "api -XGET search/issues -f q=repo:o/r",
        "issue comment 12 --body done",
        "issue comment 12 --body-file -",
        "pr comment 3 -b ok",
        "issue close --help",
        "issue view https://github.com/o/other/issues/3",
        "repo view o/other",
        "pr view 3 -R github.com/o/other",
        "search issues repo:o/r is:open",
      ]) {
        expect(decideGh(split(command), kind).kind, `${kind}: gh ${command}`).toBe("run");
      }
    }
  });

  it("runs a normalized vector the broker built, not the model's", () => {
    expect(decideGh(split("-R o/r issue view -c 12"), "work")).toEqual({
      kind: "run",
      argv: ["issue", "view", "12", "--repo", "o/r", "--comments"],
      repository: { kind: "named", repository: "o/r" },
    });
    expect(decideGh(["search", "issues", "--limit=5", "--", "-label:bug"], "work")).toEqual({
      kind: "run",
      argv: ["search", "issues", "--limit", "5", "--", "-label:bug"],
      repository: { kind: "none" },
    });
    expect(decideGh(split("issue view 1 -hc"), "work")).toEqual({
      kind: "run",
      argv: ["issue", "view", "--help"],
      repository: { kind: "none" },
    });
    expect(decideGh(["issue", "comment", "#12", "-F-"], "work")).toEqual({
      kind: "run",
      argv: ["issue", "comment", "12", "--body-file", "-"],
      repository: { kind: "run", via: "env" },
      target: { kind: "issue", number: 12, write: "comment" },
      body: { from: "stdin" },
    });
    expect(decideGh(["issue", "comment", "12", "-Fnotes.md"], "work")).toEqual({
      kind: "run",
      argv: ["issue", "comment", "12", "--body-file", "-"],
      repository: { kind: "run", via: "env" },
      target: { kind: "issue", number: 12, write: "comment" },
      body: { from: "file", path: "notes.md" },
    });
  });

  it("never brokers close, merge, release and api writes, auth, config, aliases or extensions", () => {
    for (const kind of ["work", "verification", "closure"] as const) {
      for (const command of [
        "issue reopen 1",
        "issue delete 1",
        "issue transfer 1 o/other",
        "pr close 1",
        "pr ready 1",
        "release create v1",
        "release delete v1",
        "repo delete o/r --yes",
        "api -X POST repos/o/r/issues/1/comments",
        "api --method PATCH repos/o/r/issues/1",
        "api -XPATCH repos/O/R/issues/2 -fstate=closed",
        "api repos/o/r/issues/1 -f state=closed",
        "api repos/o/r/issues/1 --input body.json",
        "api repos/o/r/issues -F title=x -X GET",
        "api repos/o/r/issues -H X-HTTP-Method-Override:PATCH",
        "api graphql -f query=mutation{x}",
        "api https://evil.example/x",
        "auth token",
        "auth status --show-token",
        "config set editor vim",
        "alias set c 'issue close'",
        "extension install o/gh-x",
        "secret set X",
        "repo clone o/r /tmp/x",
        "pr checkout 3",
        "run download 5",
        "issue view 1 --web",
        "issue view 1 -cw",
        "api --hostname evil.example user",
        "issue ls",
        "issue view 1 --unknown",
        "issue view 1 -z",
        "issue view 1 -test.v",
        "issue view 1 ---json x",
        "-R issue issue close 2",
        "issue view 1 -R evil.example/o/r",
        "issue view https://evil.example/o/r/issues/1",
        "pr view http://github.com/o/r/pull/1",
        "repo view evil.example/o/r",
        "repo view git@evil.example:o/r",
        "run view 5 --repo=https://evil.example/o/r",
      ]) {
        expect(decideGh(split(command), kind).kind, `${kind}: gh ${command}`).toBe("refuse");
      }
    }
  });

  it("refuses file arguments the real gh would read, and expressions that reach gh's environment", () => {
    expect(decideGh(["api", "user", "-q$ENV.GH_TOKEN"], "work")).toEqual({
      kind: "refuse",
      reason: expect.stringContaining("could read gh's environment or files"),
    });
    for (const expression of [
      "$ENV.GH_TOKEN",
      "$ ENV | .GH_TOKEN",
      "env",
      "Env.GH_TOKEN",
      '"\\(env.GH_TOKEN)"',
      "$__loc__",
      "input",
      'import "x" as y; .',
      "{{ env }}",
    ]) {
      for (const argv of [
        ["issue", "list", "--json", "title", "--jq", expression],
        ["issue", "list", "--json", "title", `--jq=${expression}`],
        ["issue", "list", "--json", "title", `-q${expression}`],
        ["issue", "list", "--json", "title", "-t", expression],
        ["api", "user", "--template", expression],
      ]) {
        expect(decideGh(argv, "work").kind, argv.join(" ")).toBe("refuse");
      }
    }
    expect(decideGh(["issue", "list", "--json", "title", "--jq", ".[].title"], "work").kind).toBe(
      "run",
    );
  });

  it("edits labels, records a close or a merge only in closure steps", () => {
    expect(decideGh(split("issue edit 4 --add-label done --remove-label wip"), "closure")).toEqual({
      kind: "run",
      argv: ["issue", "edit", "4", "--add-label", "done", "--remove-label", "wip"],
      repository: { kind: "run", via: "env" },
      target: { kind: "issue", number: 4, write: "label" },
      labels: { add: ["done"], remove: ["wip"] },
    });
    expect(decideGh(split("issue edit 4 --add-label done"), "work").kind).toBe("refuse");
    expect(decideGh(split("issue edit 4 --title new"), "closure").kind).toBe("refuse");
    expect(decideGh(split("issue edit 4 --add-label done --body x"), "closure").kind).toBe(
      "refuse",
    );
    expect(decideGh(["issue", "close", "#4", "--comment", "fixed in abc"], "closure")).toEqual({
      kind: "record",
      target: { kind: "issue", number: 4, write: "close" },
      request: { action: "close", issue: 4, comment: "fixed in abc" },
    });
    expect(decideGh(["issue", "close", "4", "-r", "not planned"], "closure")).toEqual({
      kind: "record",
      target: { kind: "issue", number: 4, write: "close" },
      request: { action: "close", issue: 4, reason: "not planned" },
    });
    expect(decideGh(split("issue close https://github.com/O/R/issues/9"), "closure")).toEqual({
      kind: "record",
      target: { kind: "issue", number: 9, write: "close", repository: "o/r" },
      request: { action: "close", issue: 9 },
    });
    expect(decideGh(split("-R other/repo issue close 2"), "closure")).toEqual({
      kind: "record",
      target: { kind: "issue", number: 2, write: "close", repository: "other/repo" },
      request: { action: "close", issue: 2 },
    });
    expect(decideGh(split("pr merge 5 --squash -d"), "closure")).toEqual({
      kind: "record",
      target: { kind: "pullRequest", number: 5, write: "merge" },
      request: { action: "merge", pullRequest: 5, method: "squash", deleteBranch: true },
    });
    for (const command of ["issue close 4", "pr merge 5 --squash", "issue edit 4 --add-label x"]) {
      expect(decideGh(split(command), "work").kind, command).toBe("refuse");
      expect(decideGh(split(command), "verification").kind, command).toBe("refuse");
    }
    for (const command of [
      "issue close abc",
      "issue close 4 --reason duplicate",
      "pr merge 5",
      "pr merge 5 --squash --merge",
      "pr merge 5 --squash --admin",
      "pr merge 5 --squash --auto",
      "pr merge feature-branch --squash",
      "pr merge https://github.com/o/r/issues/5 --squash",
      "pr merge https://github.com/o/r/pull/5 --squash -R o/other",
      "issue close 4 -R evil.example/o/r",
    ]) {
      expect(decideGh(split(command), "closure").kind, command).toBe("refuse");
    }
  });

  it("says where each read acts: the repository it names, else the run's (which the broker gives it)", () => {
    const where = (command: string) =>
      (decideGh(split(command), "work") as { repository?: unknown }).repository;
    expect(where("issue view 3")).toEqual({ kind: "run", via: "env" });
    expect(where("pr view")).toEqual({ kind: "run", via: "env" });
    expect(where("run list")).toEqual({ kind: "run", via: "env" });
    expect(where("issue view 3 -R O/Other")).toEqual({ kind: "named", repository: "o/other" });
    // gh takes a URL's repository over -R.
    expect(where("issue view https://github.com/o/url/issues/3 -R o/flag")).toEqual({
      kind: "named",
      repository: "o/url",
    });
    expect(where("repo view")).toEqual({ kind: "run", via: "argument" });
    expect(where("repo view o/other")).toEqual({ kind: "named", repository: "o/other" });
    expect(where("api repos/{owner}/{repo}/issues")).toEqual({
      kind: "run",
      via: "endpoint",
      at: 1,
    });
    expect(where("api repos/O/R/issues")).toEqual({ kind: "named", repository: "o/r" });
    expect(where("api user")).toEqual({ kind: "none" });
    expect(where("search issues repo:o/other")).toEqual({ kind: "none" });
    expect(where("status")).toEqual({ kind: "none" });
    expect(where("issue comment 3 -b x")).toEqual({ kind: "run", via: "env" });
    expect(where("issue comment 3 -b x -R o/other")).toEqual({
      kind: "named",
      repository: "o/other",
    });
  });

  it("reads the subcommand past flags placed before it", () => {
    expect(decideGh(split("issue -R o/r close 4"), "work").kind).toBe("refuse");
    expect(decideGh(split("-R o/r issue view 4"), "work").kind).toBe("run");
    expect(decideGh([], "work").kind).toBe("refuse");
  });
});
