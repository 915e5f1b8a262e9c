/**
 * A brokered gh call acts on the repository the host decided, whatever folder the command runs
 * in: the fake gh picks the repository as gh does (`-R`, else `GH_REPO`, else the github.com
 * `origin` of the folder's git repository), and a repository the model makes inside the working
 * directory, with another repository as its origin, must not decide which "issue #1" a label
 * edit or a read reaches. The run: issue #1 of o/r, whose clone is the working directory.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolboxFor, useTempDirs } from "../tools.test-helper.ts";
import { credentialEnv, credentialHome, fakeGh } from "./sandbox.test-helper.ts";

const NESTED =
  "git init -q tmp/nested && git -C tmp/nested remote add origin https://github.com/other/repo.git";

describe("the repository of a brokered gh call", () => {
  const tempDir = useTempDirs();

  function setup(params: Record<string, number> = { issue: 1 }) {
    const dir = tempDir();
    const gh = fakeGh(dir);
    const work = path.join(dir, "work");
    mkdirSync(work);
    execFileSync("git", ["init", "-q", work]);
    execFileSync("git", ["-C", work, "remote", "add", "origin", "https://github.com/O/R.git"]);
    const box = toolboxFor(work, {
      kind: "closure",
      env: credentialEnv(credentialHome(dir), gh),
      params,
    });
    return { gh, work, box };
  }

  it("is the run's, not the one a nested repository's origin names: a label edit and reads from inside it", async () => {
    const { gh, work, box } = setup();
    const result = await box.call("Bash", {
      command: `${NESTED} && cd tmp/nested && gh issue edit 1 --add-label pwned && gh issue view 1 && gh repo view && gh pr view`,
    });
    expect(result.content).toMatch(/\[exit code 0\]$/);
    const calls = gh
      .log()
      .filter((call) => call.argv.join(" ") !== "repo view --json nameWithOwner");
    expect(calls.map((call) => [call.argv.join(" "), call.repository])).toEqual([
      ["issue edit 1 --add-label pwned", "o/r"],
      ["issue view 1", "o/r"],
      ["repo view o/r", "o/r"],
      ["pr view", "o/r"],
    ]);
    // gh ran in the working directory's root each time, never in the nested repository.
    for (const call of gh.log()) expect(call.cwd).toBe(work);
  });

  it("is the run's for a read that names none, and the named one for a read that names another, which says so", async () => {
    const { gh, box } = setup();
    const result = await box.call("Bash", {
      command: `${NESTED} && cd tmp/nested && gh issue view 3 -R other/repo`,
    });
    expect(result.content).toContain(
      "climpt's GitHub broker: this read was of other/repo, which is not the run's repository (o/r).",
    );
    expect(gh.log().at(-1)).toMatchObject({
      argv: ["issue", "view", "3", "--repo", "other/repo"],
      repository: "other/repo",
    });
  });

  it("is asked of gh once, in the working directory's root, and kept: a later change of its remotes changes nothing", async () => {
    const { gh, work, box } = setup();
    await box.call("Bash", { command: "gh issue view 1" });
    // What only a run with the sandbox off could do: point the root's origin elsewhere.
    execFileSync("git", ["-C", work, "remote", "set-url", "origin", "https://github.com/x/y.git"]);
    await box.call("Bash", { command: "gh issue view 1" });
    expect(gh.log().map((call) => [call.argv.join(" "), call.repository])).toEqual([
      ["repo view --json nameWithOwner", "o/r"],
      ["issue view 1", "o/r"],
      ["issue view 1", "o/r"],
    ]);
  });
});
