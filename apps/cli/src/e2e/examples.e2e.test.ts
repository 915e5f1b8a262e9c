import { cpSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { type FakeAnthropic, loadFakeScript, startFakeAnthropic } from "@climpt/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { onlyJson, REPO_ROOT, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 8 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let fake: FakeAnthropic;
const repos: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
  for (const dir of repos) rmSync(dir, { recursive: true, force: true });
});

/** A fresh git copy of examples/sample-repo (slugify has a real bug). */
function sampleRepo(): string {
  const dir = tempDir("sample");
  repos.push(dir);
  cpSync(path.join(REPO_ROOT, "examples", "sample-repo"), dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "textkit: initial");
  return dir;
}

describe("the bundled fix-bug example through climpt run", () => {
  it("fixes the sample repository through the real SDK and the fake API, with --cwd", async () => {
    const repo = sampleRepo();
    const script = await loadFakeScript(path.join(REPO_ROOT, "examples/fake-models/fix-bug.json"));
    fake.reset();
    fake.enqueue(...script.replies);
    // The agent is named by a path relative to where climpt runs; the work happens in --cwd.
    const { code, stdout, stderr } = await spawnCli(
      ["run", "examples/agents/fix-bug", "--cwd", repo, "--issue", "1", "--json"],
      { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key", ...GIT_IDENTITY } },
    );
    expect(code, stderr).toBe(0);
    expect(onlyJson(stdout)).toMatchObject({ success: true, finalStepId: "closure.fix" });
    expect(stderr).toContain("verdict: retry (git-dirty) → continuation.implement");
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(readFileSync(path.join(repo, "src/slugify.js"), "utf8")).toContain(
      '.replace(/^-+|-+$/g, "")',
    );
  });

  it("replays the recorded cassette offline, with no API key", async () => {
    const repo = sampleRepo();
    const { code, stdout, stderr } = await spawnCli(
      [
        "run",
        "examples/agents/fix-bug",
        "--cwd",
        repo,
        "--issue",
        "1",
        "--replay",
        "examples/cassettes/fix-bug.jsonl",
        "--json",
      ],
      { env: GIT_IDENTITY },
    );
    expect(code, stderr).toBe(0);
    expect(onlyJson(stdout)).toMatchObject({ success: true, finalStepId: "closure.fix" });
    expect(git(repo, "status", "--porcelain")).toBe("");
  });
});
