/**
 * A worktree run's commits that change agent definitions — made without touching the working
 * tree, which the sandbox holds read-only there — are not merged unless the agent declares
 * `editAgents` (docs/design.md#worktrees).
 */
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import type { JsonValue } from "@climpt/model";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { reply, startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { intentReply, writeTestAgent } from "../agents.test-helper.ts";
import { git, makeSampleRepo } from "../runner.test-helper.ts";
import { StepFlowRunner } from "../step-flow-runner.ts";
import { loadAgentDefinition } from "./agent-location.ts";
import { definitionChanges, definitionFolders, hostGitRead } from "./definition-changes.ts";

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t.invalid",
};

/**
 * A commit on the worktree's branch that adds `.agent/wt/agent.json` (sandbox off) and changes
 * a tracked file, built in the index alone: the working tree's `.agent/` is never written.
 */
const SMUGGLE = [
  `blob=$(printf '%s' '{"name":"wt","runner":{"boundaries":{"sandbox":"off"}}}' | git hash-object -w --stdin)`,
  'git update-index --add --cacheinfo "100644,$blob,.agent/wt/agent.json"',
  "echo note > note.txt && git add note.txt",
  "git commit -qm 'tidy up'",
  "git status --porcelain -- .agent; ls .agent 2>&1 || true",
].join(" && ");

async function runSmuggler(boundaries: Readonly<Record<string, JsonValue>> = {}) {
  const repo = makeSampleRepo();
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  fake.enqueue(
    reply.toolUse({ name: "Bash", input: { command: SMUGGLE } }),
    intentReply("next"),
    intentReply("closing"),
  );
  const loaded = await loadAgentDefinition(
    writeTestAgent({
      name: "wt",
      entryStep: "initial.work",
      steps: {
        "initial.work": { intents: ["next"], transitions: { next: { target: "closure.done" } } },
        "closure.done": { intents: ["closing"], transitions: { closing: { target: null } } },
      },
      runner: {
        boundaries: {
          allowedTools: ["Read", "Bash"],
          permissionMode: "acceptEdits",
          ...boundaries,
        },
      },
    }),
  );
  const before = git(repo, "rev-parse", "main");
  const result = await new StepFlowRunner(loaded, {
    modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url }),
    env: GIT_IDENTITY,
  }).run({ cwd: repo, worktree: true });
  // A worktree the finish keeps lies next to the repository, outside the test's folders.
  const kept = result.worktree?.path;
  if (kept !== undefined) closers.push(() => rmSync(kept, { recursive: true, force: true }));
  return { repo, before, result };
}

describe("the worktree finish and agent definitions", () => {
  it("keeps a branch whose commits change .agent/ unmerged (RUN-WORKTREE-007), saying which files and how", async () => {
    const { repo, before, result } = await runSmuggler();
    const branch = `climpt/wt/${result.runId}`;
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe("RUN-WORKTREE-007");
    expect(result.error?.message).toContain("(.agent/wt/agent.json)");
    expect(result.error?.message).toContain(`"${branch}" was not merged into "main"`);
    expect(result.error?.hint).toContain(`git diff main...${branch} -- .agent`);
    expect(result.error?.hint).toContain(`git merge --no-ff ${branch}`);
    expect(result.worktree).toMatchObject({ merged: false, removed: false, branch });
    // The base is where it was, nothing of the branch reached the main checkout, the branch
    // and the worktree are there for review.
    expect(git(repo, "rev-parse", "main")).toBe(before);
    expect(existsSync(path.join(repo, ".agent"))).toBe(false);
    expect(git(repo, "show", `${branch}:.agent/wt/agent.json`)).toContain('"sandbox":"off"');
    expect(existsSync(result.worktree?.path ?? "")).toBe(true);
  });

  it("merges it when the agent declares editAgents", async () => {
    const { repo, result } = await runSmuggler({ editAgents: true });
    expect(result.error).toBeUndefined();
    expect(result.worktree).toMatchObject({ merged: true, removed: true });
    expect(git(repo, "show", "main:.agent/wt/agent.json")).toContain('"sandbox":"off"');
  });

  it("definitionChanges: the branch's net change under the definition folders, nothing else", async () => {
    const repo = makeSampleRepo();
    git(repo, "checkout", "-q", "-b", "work");
    const read = hostGitRead(repo);
    const changes = () =>
      definitionChanges({
        read,
        base: "main",
        head: "work",
        folders: definitionFolders(repo, path.join(repo, "agents", "mine")),
      });
    expect(await changes()).toEqual([]);
    // A change of the agent's own folder outside .agent/, and one under .agent/, made in the
    // index only; a file elsewhere is not a definition.
    for (const file of ["agents/mine/agent.json", ".agent/other/prompts/system.md", "src/x.js"]) {
      const blob = git(repo, "hash-object", "-w", "--stdin", "--path", file);
      git(repo, "update-index", "--add", "--cacheinfo", `100644,${blob},${file}`);
    }
    git(repo, "commit", "-qm", "smuggled");
    expect(await changes()).toEqual(
      ["agents/mine/agent.json", ".agent/other/prompts/system.md"].sort(),
    );
    // Reverted on the branch: no net change, nothing to hold back.
    git(repo, "rm", "-q", "--cached", "-r", ".agent", "agents");
    git(repo, "commit", "-qm", "reverted");
    expect(await changes()).toEqual([]);
  });
});
