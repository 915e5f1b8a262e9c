import { describe, expect, it } from "vitest";
import { DEFAULT_GITHUB_TARGETS } from "./github-target-rules.ts";
import { checkGithubTarget, githubRunScope, normalizeRepository } from "./github-targets.ts";

const NONE = { github: {} };

describe("githubRunScope", () => {
  it("takes the run's issue from `issue` and its pull request from `prNumber`, else `pr`", () => {
    expect(githubRunScope(NONE, { issue: 12, prNumber: "34", pr: 56 })).toEqual({
      issue: 12,
      pullRequest: 34,
      targets: DEFAULT_GITHUB_TARGETS,
    });
    expect(githubRunScope(NONE, { pr: "7" })).toEqual({
      pullRequest: 7,
      targets: DEFAULT_GITHUB_TARGETS,
    });
    // poll:state's own issue, declared in agent.json, when the run has no --issue.
    expect(githubRunScope({ github: {}, verdict: { config: { issue: 9 } } }, {}).issue).toBe(9);
    expect(
      githubRunScope({ github: {}, verdict: { config: { issue: 9 } } }, { issue: 3 }).issue,
    ).toBe(3);
    for (const bad of [0, -1, 1.5, "12abc", "", " ", "0x10", true, null, [3]]) {
      expect(githubRunScope(NONE, { issue: bad }).issue).toBeUndefined();
    }
  });
});

describe("normalizeRepository", () => {
  it("reads OWNER/REPO, github.com/OWNER/REPO and the https URL, in lower case", () => {
    expect(normalizeRepository("Octo/Repo")).toBe("octo/repo");
    expect(normalizeRepository("github.com/octo/repo")).toBe("octo/repo");
    expect(normalizeRepository("https://github.com/Octo/repo.git")).toBe("octo/repo");
    expect(normalizeRepository("https://github.com/octo/repo/")).toBe("octo/repo");
  });

  it("refuses other hosts, paths and names GitHub does not allow", () => {
    for (const text of [
      "evil.example/octo/repo",
      "https://evil.example/octo/repo",
      "http://github.com/octo/repo",
      "octo/repo/issues",
      "octo",
      "../repo",
      "octo/..",
      "-x/repo",
      "octo/re po",
      "",
    ]) {
      expect(normalizeRepository(text), text).toBeUndefined();
    }
  });
});

describe("checkGithubTarget", () => {
  const scope = githubRunScope(NONE, { issue: 1, prNumber: 5 });

  it("allows the run's own issue and pull request in its own repository", () => {
    expect(checkGithubTarget(scope, { kind: "issue", number: 1, write: "close" })).toEqual({
      ok: true,
    });
    expect(checkGithubTarget(scope, { kind: "pullRequest", number: 5, write: "merge" })).toEqual({
      ok: true,
    });
    expect(
      checkGithubTarget(
        scope,
        { kind: "issue", number: 1, write: "close", repository: "o/r" },
        "o/r",
      ),
    ).toEqual({ ok: true });
  });

  it("refuses another number, a pull request number used as an issue, another repository", () => {
    const refused = [
      checkGithubTarget(scope, { kind: "issue", number: 7, write: "close" }),
      checkGithubTarget(scope, { kind: "issue", number: 5, write: "close" }),
      checkGithubTarget(scope, { kind: "pullRequest", number: 1, write: "merge" }),
      checkGithubTarget(
        scope,
        { kind: "issue", number: 1, write: "close", repository: "other/repo" },
        "o/r",
      ),
      // Unknown own repository: a named repository cannot be shown to be the run's.
      checkGithubTarget(scope, { kind: "issue", number: 1, write: "close", repository: "o/r" }),
      checkGithubTarget(githubRunScope(NONE, {}), { kind: "issue", number: 1, write: "close" }),
    ];
    for (const check of refused) expect(check.ok).toBe(false);
    // A run with an issue of its own labels and comments on that one only.
    for (const write of ["label", "comment"] as const) {
      expect(checkGithubTarget(scope, { kind: "issue", number: 7, write }).ok).toBe(false);
    }
    expect(refused[0]).toMatchObject({
      reason: "issue #7 is not the run's: this run's issue is #1.",
      hint: expect.stringContaining("runner.integrations.github.targets"),
    });
    expect(refused[5]).toMatchObject({
      reason: expect.stringContaining("this run has no issue of its own (no --issue argument)"),
    });
  });

  it("follows the declaration: any issue, any pull request, other repositories", () => {
    const any = githubRunScope(
      { github: { targets: { issues: "any", pullRequests: "own", repositories: ["o/other"] } } },
      { issue: 1 },
    );
    expect(checkGithubTarget(any, { kind: "issue", number: 99, write: "close" }).ok).toBe(true);
    expect(
      checkGithubTarget(any, { kind: "issue", number: 3, write: "close", repository: "o/other" })
        .ok,
    ).toBe(true);
    expect(
      checkGithubTarget(any, { kind: "issue", number: 3, write: "close", repository: "o/third" })
        .ok,
    ).toBe(false);
    // The own pull request rule does not reach into another repository.
    const ownPr = githubRunScope(
      { github: { targets: { issues: "own", pullRequests: "own", repositories: ["o/other"] } } },
      { prNumber: 5 },
    );
    expect(
      checkGithubTarget(ownPr, {
        kind: "pullRequest",
        number: 5,
        write: "merge",
        repository: "o/other",
      }).ok,
    ).toBe(false);
  });

  it("lets a run without an issue or pull request of its own label and comment on any issue of its repository, never close or merge", () => {
    const unattached = githubRunScope(NONE, {});
    for (const write of ["label", "comment"] as const) {
      expect(checkGithubTarget(unattached, { kind: "issue", number: 15, write })).toEqual({
        ok: true,
      });
      expect(
        checkGithubTarget(
          unattached,
          { kind: "issue", number: 15, write, repository: "o/r" },
          "o/r",
        ),
      ).toEqual({ ok: true });
      // Not in another repository, not on pull requests.
      expect(
        checkGithubTarget(
          unattached,
          { kind: "issue", number: 15, write, repository: "other/repo" },
          "o/r",
        ).ok,
      ).toBe(false);
      expect(checkGithubTarget(unattached, { kind: "pullRequest", number: 15, write }).ok).toBe(
        false,
      );
    }
    expect(checkGithubTarget(unattached, { kind: "issue", number: 15, write: "close" })).toEqual({
      ok: false,
      reason:
        "issue #15 is not the run's: this run has no issue of its own (no --issue argument). A run without an issue or pull request of its own may comment on and label any issue of its repository, but closing one needs an issue of its own or a declaration.",
      hint: expect.stringContaining("runner.integrations.github.targets"),
    });
    expect(
      checkGithubTarget(unattached, { kind: "pullRequest", number: 15, write: "merge" }).ok,
    ).toBe(false);
    // A run that owns a pull request (the merger) is not unattached: its issues stay out of reach.
    const merger = githubRunScope(NONE, { prNumber: 8 });
    expect(checkGithubTarget(merger, { kind: "issue", number: 15, write: "label" }).ok).toBe(false);
  });
});
