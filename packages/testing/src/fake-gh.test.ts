import { execFileSync, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { installSimpleFakeGh } from "./fake-gh.ts";

describe("installSimpleFakeGh", () => {
  it("keeps issue labels, state and comments across calls, as gh would show them", () => {
    const fake = installSimpleFakeGh({ issues: { 7: { title: "Broken", labels: ["bug"] } } });
    const gh = (...args: string[]) => execFileSync(fake.gh, args, { encoding: "utf8" });
    gh("issue", "edit", "7", "--add-label", "kind:impl,order:1", "--remove-label", "bug");
    gh("issue", "comment", "7", "--body", "triaged");
    expect(JSON.parse(gh("issue", "view", "7", "--json", "state,labels"))).toEqual({
      state: "OPEN",
      labels: [{ name: "kind:impl" }, { name: "order:1" }],
    });
    gh("issue", "close", "7");
    expect(fake.issue(7)).toMatchObject({ state: "CLOSED", comments: ["triaged"] });
    expect(JSON.parse(gh("issue", "list", "--state", "open", "--json", "number"))).toEqual([]);
    expect(fake.calls()[0]).toEqual([
      "issue",
      "edit",
      "7",
      "--add-label",
      "kind:impl,order:1",
      "--remove-label",
      "bug",
    ]);
  });

  it("merges an open pull request once and refuses what it does not know", () => {
    const fake = installSimpleFakeGh({ pullRequests: { 3: {} } });
    expect(spawnSync(fake.gh, ["pr", "merge", "3", "--squash"]).status).toBe(0);
    expect(fake.state().pullRequests["3"]?.state).toBe("MERGED");
    const again = spawnSync(fake.gh, ["pr", "merge", "3"], { encoding: "utf8" });
    expect(again.status).toBe(1);
    const unknown = spawnSync(fake.gh, ["api", "repos/x"], { encoding: "utf8" });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("unsupported command: gh api repos/x");
  });

  it("names the one repository it holds to gh repo view", () => {
    const gh = (fake: { gh: string }, ...args: string[]) =>
      execFileSync(fake.gh, args, { encoding: "utf8" });
    expect(
      JSON.parse(gh(installSimpleFakeGh(), "repo", "view", "--json", "nameWithOwner")),
    ).toEqual({ nameWithOwner: "climpt-test/sample" });
    const acme = installSimpleFakeGh({ repo: "acme/widgets" });
    expect(JSON.parse(gh(acme, "repo", "view", "--json", "name,owner"))).toEqual({
      name: "widgets",
      owner: { login: "acme" },
    });
  });
});
