import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { JsonValue } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { GITHUB_TOOL_NAMES } from "../tool-names.ts";
import { agentDefinition, toolboxFor, useTempDirs } from "../tools.test-helper.ts";

/**
 * A fake `gh` on PATH that appends each call's arguments (and a comment's body and the
 * repository it was given in GH_REPO) to a log. It names o/r to `gh repo view --json
 * nameWithOwner` (the toolbox's question for the run's repository), which it does not log.
 */
function fakeGh(
  dir: string,
  exitCode = 0,
): {
  env: Record<string, string>;
  calls: () => string[];
  body: () => string;
  repository: () => string;
} {
  const bin = path.join(dir, ".fake-bin");
  mkdirSync(bin, { recursive: true });
  const log = path.join(dir, ".gh-calls.log");
  writeFileSync(
    path.join(bin, "gh"),
    [
      "#!/bin/sh",
      'if [ "$*" = "repo view --json nameWithOwner" ]; then echo \'{"nameWithOwner":"o/r"}\'; exit 0; fi',
      'printf "%s\\n" "$*" >> "$FAKE_GH_LOG"',
      'printf "%s" "$GH_REPO" > "$FAKE_GH_LOG.repo"',
      `if [ ${exitCode} -ne 0 ]; then echo "HTTP 404: Not Found" >&2; exit ${exitCode}; fi`,
      'if [ "$1 $2" = "issue comment" ]; then cat > "$FAKE_GH_LOG.body"; echo "https://github.com/o/r/issues/$3#issuecomment-1"; fi',
    ].join("\n"),
  );
  chmodSync(path.join(bin, "gh"), 0o755);
  return {
    env: { PATH: `${bin}:${process.env.PATH ?? ""}`, FAKE_GH_LOG: log },
    calls: () =>
      existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean) : [],
    body: () => readFileSync(`${log}.body`, "utf8"),
    repository: () => readFileSync(`${log}.repo`, "utf8"),
  };
}

describe("GitHub tools", () => {
  const tempDir = useTempDirs();

  it("do not exist in work and verification steps, and are refused if called", async () => {
    const dir = tempDir();
    const gh = fakeGh(dir);
    for (const kind of ["work", "verification"] as const) {
      // The agent lists every tool; the GitHub ones stay out of these kinds all the same.
      const box = toolboxFor(dir, { kind, env: gh.env });
      expect(box.definitions.map((d) => d.name)).toEqual(
        kind === "work"
          ? ["Read", "Write", "Edit", "Bash", "Glob", "Grep"]
          : ["Read", "Glob", "Grep"],
      );
      for (const name of GITHUB_TOOL_NAMES) {
        const result = await box.call(name, { issue: 1, body: "x" });
        expect(result.isError).toBe(true);
        expect(result.content).toContain(
          `TOOL-POLICY-001 refused by the tool policy: GitHub tools exist only in closure steps`,
        );
        expect(result.content).toContain(`is a ${kind} step`);
      }
      expect(box.boundaryRequests()).toEqual([]);
    }
    expect(gh.calls()).toEqual([]);
  });

  it("exist in closure steps only when listed in allowedTools and the GitHub integration is enabled", () => {
    const dir = tempDir();
    // An agent listing only the file tools gets no GitHub tool in its closure step.
    const unlisted = toolboxFor(dir, { kind: "closure", agent: agentDefinition() });
    expect(unlisted.definitions.map((d) => d.name)).toEqual([
      "Read",
      "Write",
      "Edit",
      "Bash",
      "Glob",
      "Grep",
    ]);
    expect(unlisted.policy.unavailable.github_close_issue?.reason).toContain(
      "not in the agent's allowedTools",
    );
    const on = toolboxFor(dir, { kind: "closure" });
    expect(on.definitions.map((d) => d.name)).toEqual([
      "Read",
      "Write",
      "Edit",
      "Bash",
      "Glob",
      "Grep",
      "github_comment",
      "github_edit_labels",
      "github_close_issue",
    ]);
    const off = toolboxFor(dir, {
      kind: "closure",
      agent: agentDefinition({
        allowedTools: [...GITHUB_TOOL_NAMES],
        github: { enabled: false, labels: {}, defaultClosureAction: "close" },
      }),
    });
    expect(off.definitions.map((d) => d.name)).not.toContain("github_comment");
    expect(off.policy.unavailable.github_close_issue?.reason).toContain(
      "GitHub integration is disabled",
    );
  });

  it("github_comment runs gh issue comment at once, body on stdin", async () => {
    const dir = tempDir();
    const gh = fakeGh(dir);
    const box = toolboxFor(dir, { kind: "closure", env: gh.env, params: { issue: 7 } });
    const result = await box.call("github_comment", {
      issue: 7,
      body: "Done: tests pass.\n`$(not run)`",
    });
    expect(result).toEqual({
      content: "Commented on issue #7. https://github.com/o/r/issues/7#issuecomment-1",
      isError: false,
    });
    expect(gh.calls()).toEqual(["issue comment 7 --body-file -"]);
    expect(gh.repository()).toBe("o/r");
    expect(gh.body()).toBe("Done: tests pass.\n`$(not run)`");
    expect(box.boundaryRequests()).toEqual([]);
  });

  it("github_close_issue records a boundary request and touches nothing", async () => {
    const dir = tempDir();
    const gh = fakeGh(dir);
    const box = toolboxFor(dir, { kind: "closure", env: gh.env, params: { issue: 7 } });
    const result = await box.call("github_close_issue", {
      issue: 7,
      comment: "Fixed in this branch.",
    });
    expect(result.isError).toBe(false);
    expect(result.content).toContain(
      "Recorded for the boundary hook: close issue #7 with a closing comment.",
    );
    expect(result.content).toContain("Nothing has changed on GitHub yet");
    expect(result.content).toContain(
      "only after this closure step returns `closing` and the completion validators pass",
    );
    expect(gh.calls()).toEqual([]);
    expect(box.boundaryRequests()).toEqual([
      {
        action: "close",
        issue: 7,
        labels: { add: [], remove: [] },
        comment: "Fixed in this branch.",
      },
    ]);
  });

  it("merges label and close requests per issue", async () => {
    const dir = tempDir();
    const gh = fakeGh(dir);
    // An agent that declares it may act on any issue (a triager).
    const box = toolboxFor(dir, {
      kind: "closure",
      env: gh.env,
      agent: agentDefinition({
        allowedTools: [...GITHUB_TOOL_NAMES],
        github: {
          enabled: true,
          labels: {},
          defaultClosureAction: "close",
          targets: { issues: "any", pullRequests: "own", repositories: [] },
        },
      }),
    });
    const labels = await box.call("github_edit_labels", {
      issue: 7,
      add: ["done", "x"],
      remove: ["in-progress"],
    });
    expect(labels.content).toContain("change labels of issue #7 (+done, +x, -in-progress)");
    await box.call("github_edit_labels", { issue: 8, add: ["blocked"] });
    await box.call("github_close_issue", { issue: 7, remove_labels: ["x"] });
    expect(box.boundaryRequests()).toEqual([
      {
        action: "label-and-close",
        issue: 7,
        labels: { add: ["done"], remove: ["in-progress", "x"] },
      },
      { action: "label-only", issue: 8, labels: { add: ["blocked"], remove: [] } },
    ]);
    expect(gh.calls()).toEqual([]);
  });

  it("validates GitHub tool input", async () => {
    const dir = tempDir();
    const box = toolboxFor(dir, { kind: "closure" });
    expect((await box.call("github_edit_labels", { issue: 7 })).content).toContain(
      "give at least one label",
    );
    expect((await box.call("github_close_issue", { issue: "7" })).content).toContain(
      '"issue" must be a whole number',
    );
    expect((await box.call("github_comment", { issue: 0, body: "x" })).content).toContain(
      '"issue" must be at least 1',
    );
    expect(box.boundaryRequests()).toEqual([]);
  });

  it("reports a failing or missing gh", async () => {
    const dir = tempDir();
    const gh = fakeGh(dir, 1);
    const failing = await toolboxFor(dir, {
      kind: "closure",
      env: gh.env,
      params: { issue: 9 },
    }).call("github_comment", { issue: 9, body: "x" });
    expect(failing).toEqual({
      content: "TOOL-GH-001: gh issue comment 9 exited with code 1:\nHTTP 404: Not Found",
      isError: true,
    });
    // The run's repository fixed by the runner: the comment itself finds no gh.
    const missing = await toolboxFor(dir, {
      kind: "closure",
      params: { issue: 9 },
      ghCommand: path.join(dir, "no-such-gh"),
      githubRepository: { known: true, name: "o/r" },
    }).call("github_comment", { issue: 9, body: "x" });
    expect(missing.isError).toBe(true);
    expect(missing.content).toMatch(/^TOOL-GH-001: could not run ".*no-such-gh"/);
    // Without one, the toolbox asks that gh for it, and nothing is posted anywhere.
    const unknown = await toolboxFor(dir, {
      kind: "closure",
      params: { issue: 9 },
      ghCommand: path.join(dir, "no-such-gh"),
    }).call("github_comment", { issue: 9, body: "x" });
    expect(unknown).toEqual({
      content: expect.stringMatching(
        /^TOOL-GH-003: gh was not run: the run's repository is unknown \(`gh repo view` in the working directory failed: .*no-such-gh/,
      ),
      isError: true,
    });
  });

  it("Bash cannot close or merge even in a closure step; label edits go through the broker", async () => {
    const dir = tempDir();
    const gh = fakeGh(dir);
    const box = toolboxFor(dir, { kind: "closure", env: gh.env, params: { issue: 7 } });
    for (const command of [
      "gh issue close 7",
      "gh pr merge 7",
      "gh issue edit 7 --add-label done --title x",
      "gh api repos/o/r/issues/7 -X PATCH",
    ]) {
      expect((await box.call("Bash", { command })).content).toMatch(/^TOOL-POLICY-003/);
    }
    expect((await box.call("Bash", { command: "gh issue view 7" })).content).toBe(
      "(no output)\n[exit code 0]",
    );
    expect((await box.call("Bash", { command: "gh issue edit 7 --add-label done" })).content).toBe(
      "(no output)\n[exit code 0]",
    );
    expect(gh.calls()).toEqual(["issue view 7", "issue edit 7 --add-label done"]);
    // A work step's Bash still refuses the same label edit.
    const work = toolboxFor(dir, { kind: "work", env: gh.env, params: { issue: 7 } });
    expect(
      (await work.call("Bash", { command: "gh issue edit 7 --add-label done" })).content,
    ).toMatch(/^TOOL-POLICY-003/);
  });

  it("refuse another issue than the run's, before anything is recorded or posted", async () => {
    const dir = tempDir();
    const gh = fakeGh(dir);
    const box = toolboxFor(dir, { kind: "closure", env: gh.env, params: { issue: 1 } });
    const calls: [string, JsonValue][] = [
      ["github_close_issue", { issue: 7 }],
      ["github_edit_labels", { issue: 7, add: ["done"] }],
      ["github_comment", { issue: 7, body: "x" }],
    ];
    for (const [name, input] of calls) {
      const result = await box.call(name, input);
      expect(result.isError, name).toBe(true);
      expect(result.content, name).toMatch(
        /^TOOL-GH-002 refused by the GitHub target policy: issue #7 is not the run's: this run's issue is #1\. /,
      );
      expect(result.content, name).toContain("runner.integrations.github.targets");
    }
    expect(box.events.filter((event) => event.type === "tool_refused")).toHaveLength(3);
    expect(box.boundaryRequests()).toEqual([]);
    expect(gh.calls()).toEqual([]);
    // The run's own issue still works.
    expect((await box.call("github_close_issue", { issue: 1 })).isError).toBe(false);
    expect(box.boundaryRequests()).toEqual([
      { action: "close", issue: 1, labels: { add: [], remove: [] } },
    ]);
  });

  it("a run without an issue of its own (the triager) labels and comments on any issue, never closes one", async () => {
    const dir = tempDir();
    const gh = fakeGh(dir);
    const triager = toolboxFor(dir, { kind: "closure", env: gh.env, params: {} });
    expect(
      (
        await triager.call("Bash", {
          command: "gh issue edit 15 --add-label kind:consider,order:1",
        })
      ).content,
    ).toBe("(no output)\n[exit code 0]");
    expect(
      (await triager.call("github_edit_labels", { issue: 16, add: ["kind:impl"] })).isError,
    ).toBe(false);
    expect((await triager.call("github_comment", { issue: 16, body: "Triaged." })).isError).toBe(
      false,
    );
    const close = await triager.call("github_close_issue", { issue: 15 });
    expect(close.content).toMatch(
      /^TOOL-GH-002 refused by the GitHub target policy: issue #15 is not the run's: this run has no issue of its own \(no --issue argument\)\. A run without an issue or pull request of its own may comment on and label any issue of its repository, but closing one needs an issue of its own or a declaration\./,
    );
    const hidden = Buffer.from("gh issue close 15").toString("base64");
    expect(
      (await triager.call("Bash", { command: `echo ${hidden} | base64 -d | sh` })).content,
    ).toContain("refused by climpt's GitHub broker: issue #15 is not the run's");
    expect(gh.calls()).toEqual([
      "issue edit 15 --add-label kind:consider,order:1",
      "issue comment 16 --body-file -",
    ]);
    expect(triager.boundaryRequests()).toEqual([
      { action: "label-only", issue: 16, labels: { add: ["kind:impl"], remove: [] } },
    ]);
    // A run with an issue of its own still labels only that one.
    const owned = toolboxFor(dir, { kind: "closure", env: gh.env, params: { issue: 1 } });
    expect(
      (await owned.call("Bash", { command: "gh issue edit 15 --add-label kind:consider" })).content,
    ).toContain(
      "refused by climpt's GitHub broker: issue #15 is not the run's: this run's issue is #1.",
    );
    expect((await owned.call("github_edit_labels", { issue: 15, add: ["x"] })).content).toMatch(
      /^TOOL-GH-002/,
    );
    expect(gh.calls()).toHaveLength(2);
  });
});
