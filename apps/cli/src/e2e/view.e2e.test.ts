import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, readFileSync } from "node:fs";
import { get } from "node:http";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { BIN, EXAMPLES, REPO_ROOT, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 11 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const CASSETTE = path.join(REPO_ROOT, "examples", "cassettes", "fix-bug.jsonl");
let repo: string;
let firstRunId: string;

/** A fresh git copy of the sample repository, as `pnpm demo` makes one. */
function sampleRepo(): string {
  const dir = tempDir("view");
  cpSync(path.join(REPO_ROOT, "examples", "sample-repo"), dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.name", "climpt-test");
  git(dir, "config", "user.email", "test@climpt.invalid");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "initial");
  return dir;
}

/** The demo run: fix-bug replayed from its cassette, in `cwd`. Returns the run id. */
async function demoRun(cwd: string): Promise<string> {
  const outcome = await spawnCli(
    [
      "run",
      path.join(EXAMPLES, "fix-bug"),
      "--cwd",
      cwd,
      "--issue",
      "1",
      "--replay",
      CASSETTE,
      "--json",
    ],
    { env: GIT_IDENTITY },
  );
  expect(outcome.code).toBe(0);
  return (JSON.parse(outcome.stdout) as { runId: string }).runId;
}

beforeAll(async () => {
  repo = sampleRepo();
  firstRunId = await demoRun(repo);
});

describe("climpt view", () => {
  it("writes one self-contained page of a run, found by its id", async () => {
    const outcome = await spawnCli(["view", firstRunId, "--cwd", repo], { cwd: repo });
    expect(outcome.code).toBe(0);
    const file = path.join(repo, `${firstRunId}.html`);
    expect(outcome.stdout).toBe(`${file}\n`);
    expect(outcome.stderr).toContain("Open it in a browser: file://");
    const html = readFileSync(file, "utf8");
    expect(html).toContain(firstRunId);
    expect(html).toContain("connect-src 'none'");
    expect(html).not.toMatch(/<script[^>]+src=|<link\b|<img\b/);
  });

  it("writes a page of every run of the project, or of a journal file, where --out says", async () => {
    const all = await spawnCli(["view", "--cwd", repo, "--out", "all.html", "--json"], {
      cwd: repo,
    });
    expect(JSON.parse(all.stdout)).toEqual({
      ok: true,
      file: path.join(repo, "all.html"),
      runs: 1,
    });
    const journal = path.join(repo, "tmp", "climpt", "logs", "fix-bug", `${firstRunId}.jsonl`);
    const single = await spawnCli(["view", journal, "--out", "single.html"], { cwd: repo });
    expect(single.code).toBe(0);
    expect(existsSync(path.join(repo, "single.html"))).toBe(true);
  });

  it("refuses an unknown run, a file that is no journal and --serve with a run, with coded errors", async () => {
    const unknown = await spawnCli(["view", "20990101T000000Z-ffffff", "--cwd", repo], {
      cwd: repo,
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("AC-VIEW-001");
    expect(unknown.stderr).toContain("tmp/climpt/logs/fix-bug");
    const notJournal = await spawnCli(["view", CASSETTE], { cwd: repo });
    expect(notJournal.code).toBe(2);
    expect(notJournal.stderr).toContain("AC-VIEW-002");
    const conflict = await spawnCli(["view", firstRunId, "--serve"], { cwd: repo });
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toContain("AC-CLI-011");
    const empty = await spawnCli(["view"], { cwd: sampleRepo() });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("AC-VIEW-003");
  });
});

/** The first line a child prints on stdout. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      const end = text.indexOf("\n");
      if (end >= 0) resolve(text.slice(0, end));
    });
    child.on("exit", (code) => reject(new Error(`exited (${code}) before printing a line`)));
  });
}

/** Reads server-sent events from `url` until `done` says enough; then closes the stream. */
function readEvents(url: string, done: (events: { event: string; data: string }[]) => boolean) {
  return new Promise<{ event: string; data: string }[]>((resolve, reject) => {
    const events: { event: string; data: string }[] = [];
    const request = get(url, (response) => {
      let buffer = "";
      response.setEncoding("utf8").on("data", (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined) events.push({ event, data });
          end = buffer.indexOf("\n\n");
        }
        if (done(events)) {
          request.destroy();
          resolve(events);
        }
      });
    });
    request.on("error", (error) => {
      if (!(error as NodeJS.ErrnoException).code?.startsWith("ECONNRESET")) reject(error);
    });
  });
}

describe("climpt view --serve", () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill("SIGKILL");
  });

  it("serves the project's runs on 127.0.0.1 and streams a new run as it is journaled", async () => {
    child = spawn(process.execPath, [BIN, "view", "--serve", "--cwd", repo], {
      cwd: repo,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const url = await firstLine(child);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    const stream = readEvents(`${url}api/live`, (events) =>
      events.some((event) => event.event === "runs" && JSON.parse(event.data).length === 2),
    );
    // The same demo again in the same repository, back at its first commit (the first run fixed
    // and committed; the replayed model expects the bug).
    git(repo, "reset", "-q", "--hard", git(repo, "rev-list", "--max-parents=0", "HEAD"));
    git(repo, "clean", "-qfd");
    const secondRunId = await demoRun(repo);
    const events = await stream;
    const runs = JSON.parse(events.at(-1)?.data ?? "[]") as { runId: string }[];
    expect(runs.map((run) => run.runId).sort()).toEqual([firstRunId, secondRunId].sort());

    const exited = new Promise<number | null>((resolve) => child?.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
