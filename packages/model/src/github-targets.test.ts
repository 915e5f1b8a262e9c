import { describe, expect, it } from "vitest";
import {
  checkGithubTarget,
  DEFAULT_GITHUB_TARGETS,
  githubRunScope,
  normalizeRepository,
} from "./github-targets.ts";

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
    expect(checkGithubTarget(scope, { kind: "issue", number: 1 })).toEqual({ ok: true });
    expect(checkGithubTarget(scope, { kind: "pullRequest", number: 5 })).toEqual({ ok: true });
    expect(
      checkGithubTarget(scope, { kind: "issue", number: 1, repository: "o/r" }, "o/r"),
    ).toEqual({ ok: true });
  });

  it("refuses another number, a pull request number used as an issue, another repository", () => {
    const refused = [
      checkGithubTarget(scope, { kind: "issue", number: 7 }),
      checkGithubTarget(scope, { kind: "issue", number: 5 }),
      checkGithubTarget(scope, { kind: "pullRequest", number: 1 }),
      checkGithubTarget(scope, { kind: "issue", number: 1, repository: "other/repo" }, "o/r"),
      // Unknown own repository: a named repository cannot be shown to be the run's.
      checkGithubTarget(scope, { kind: "issue", number: 1, repository: "o/r" }),
      checkGithubTarget(githubRunScope(NONE, {}), { kind: "issue", number: 1 }),
    ];
    for (const check of refused) expect(check.ok).toBe(false);
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
    expect(checkGithubTarget(any, { kind: "issue", number: 99 }).ok).toBe(true);
    expect(checkGithubTarget(any, { kind: "issue", number: 3, repository: "o/other" }).ok).toBe(
      true,
    );
    expect(checkGithubTarget(any, { kind: "issue", number: 3, repository: "o/third" }).ok).toBe(
      false,
    );
    // The own pull request rule does not reach into another repository.
    const ownPr = githubRunScope(
      { github: { targets: { issues: "own", pullRequests: "own", repositories: ["o/other"] } } },
      { prNumber: 5 },
    );
    expect(
      checkGithubTarget(ownPr, { kind: "pullRequest", number: 5, repository: "o/other" }).ok,
    ).toBe(false);
  });
});
