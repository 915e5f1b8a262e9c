/**
 * What real agents do from Bash, through the real `climpt run` with the sandbox on: write a
 * scratch file under `$TMPDIR`, commit, and `git push -u origin HEAD` — which the host performs
 * through the push broker, for the run's branch only.
 */
import { existsSync, rmSync } from "node:fs";
import * as path from "node:path";
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git, initFiles, makeProject } from "./project.test-helper.ts";
import { spawnCli } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 6 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let fake: FakeAnthropic;
const dirs: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => {
  fake.reset();
});
afterAll(async () => {
  await fake.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The scaffolded agent in a repository whose `origin` is a local bare repository. */
function projectWithRemote(): { cwd: string; remote: string } {
  const cwd = makeProject("my-agent", initFiles("my-agent"));
  const remote = `${cwd}-remote.git`;
  dirs.push(cwd, remote);
  git(path.dirname(remote), "init", "-q", "--bare", "-b", "main", remote);
  git(cwd, "remote", "add", "origin", remote);
  git(cwd, "push", "-q", "origin", "main");
  return { cwd, remote };
}

// Structured outputs of the scaffolded gate agent (climpt init).
const plan = reply.json({
  stepId: "initial.work",
  summary: "Planned.",
  plan: { approach: "Write notes.txt, commit and push it." },
  next_action: { action: "next", reason: "planned" },
});
const handoff = reply.json({
  stepId: "continuation.work",
  summary: "Pushed notes.txt.",
  work: { description: "Add notes.txt", files: ["notes.txt"] },
  next_action: { action: "handoff", reason: "done" },
});
const closing = reply.json({
  stepId: "closure.done",
  summary: "Finished.",
  closure: { committed: true, report: "notes.txt pushed" },
  next_action: { action: "closing", reason: "complete" },
});

const WORK = [
  [
    `cat > "$TMPDIR/body.md" <<'EOF'`,
    'cp "$TMPDIR/body.md" notes.txt',
    "git add notes.txt",
    "git commit -qm notes",
    "git push -u origin HEAD",
    "git rev-parse --abbrev-ref --symbolic-full-name @{u}",
  ].join(" && "),
  "## Notes",
  "written by the agent",
  "EOF",
].join("\n");

/** Every tool result the model was sent, in order. */
function toolResults(): string[] {
  const results: string[] = [];
  for (const request of fake.messageRequests()) {
    const body = request.body as { messages?: { content: unknown }[] };
    const last = body.messages?.at(-1)?.content;
    if (!Array.isArray(last)) continue;
    for (const block of last as { type?: string; content?: unknown }[]) {
      if (block.type === "tool_result") results.push(JSON.stringify(block.content));
    }
  }
  return results;
}

function run(cwd: string, args: readonly string[]) {
  return spawnCli(["run", "my-agent", "--task", "write notes", ...args], {
    cwd,
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key", ...GIT_IDENTITY },
  });
}

describe("climpt run: $TMPDIR and git push from Bash in the sandbox", () => {
  it("plain mode on a branch: writes $TMPDIR/body.md and pushes the branch with -u", async () => {
    const { cwd, remote } = projectWithRemote();
    git(cwd, "checkout", "-qb", "work/notes");
    fake.enqueue(reply.toolUse({ name: "Bash", input: { command: WORK } }), plan, handoff, closing);
    const { code, stderr } = await run(cwd, []);
    expect(code, stderr).toBe(0);
    const [result] = toolResults();
    expect(result).toContain("HEAD -> work/notes");
    expect(result).toContain("origin/work/notes");
    expect(result).toContain("[exit code 0]");
    expect(git(remote, "rev-parse", "refs/heads/work/notes")).toBe(git(cwd, "rev-parse", "HEAD"));
    expect(git(remote, "show", "work/notes:notes.txt")).toBe("## Notes\nwritten by the agent");
    expect(git(cwd, "config", "branch.work/notes.merge")).toBe("refs/heads/work/notes");
  });

  it("worktree mode: pushes the worktree's branch, never the base branch", async () => {
    const { cwd, remote } = projectWithRemote();
    const main = git(remote, "rev-parse", "refs/heads/main");
    fake.enqueue(
      reply.toolUse({ name: "Bash", input: { command: WORK } }),
      reply.toolUse({ name: "Bash", input: { command: "git push origin HEAD:main" } }),
      plan,
      handoff,
      closing,
    );
    const { code, stderr } = await run(cwd, [
      "--worktree",
      "--branch",
      "climpt/notes",
      "--no-merge",
    ]);
    expect(code, stderr).toBe(0);
    const [pushed, base] = toolResults();
    expect(pushed).toContain("HEAD -> climpt/notes");
    expect(base).toContain("`main` is protected");
    expect(git(remote, "rev-parse", "refs/heads/main")).toBe(main);
    expect(git(remote, "rev-parse", "refs/heads/climpt/notes")).toBe(
      git(cwd, "rev-parse", "refs/heads/climpt/notes"),
    );
    expect(existsSync(path.join(cwd, "notes.txt"))).toBe(false);
  });
});
