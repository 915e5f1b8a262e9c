/**
 * MCP servers as tools, through the real `climpt run`: the fake Messages API issues `mcp__…`
 * tool calls, and the servers are the real ones from npm (`@modelcontextprotocol/server-
 * filesystem`, `@modelcontextprotocol/server-everything`), started inside the OS sandbox by the
 * official client. What the model was told is read from the requests the fake received (each
 * tool_result goes back to it), what the run did from the journal and the folders.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { type FakeAnthropic, reply, startFakeAnthropic, waitUntil } from "@climpt/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git, initFiles, makeProject } from "./project.test-helper.ts";
import {
  EXAMPLES,
  onlyJson,
  REPO_ROOT,
  spawnCli,
  stopRunningClis,
  tempDir,
} from "./spawn-cli.test-helper.ts";

// Each run starts a sandboxed Node server (about a second on a busy 2-core machine) besides climpt.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const require = createRequire(import.meta.url);
function serverScript(name: string): string {
  const dir = path.dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`));
  return path.join(dir, "dist", "index.js");
}
const FILESYSTEM = serverScript("server-filesystem");
const EVERYTHING = serverScript("server-everything");

let fake: FakeAnthropic;
const dirs: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => {
  stopRunningClis();
  fake.reset();
});
afterAll(async () => {
  await fake.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Servers = Record<string, { command: string; args: string[]; env?: Record<string, string> }>;

/** The scaffolded agent with MCP servers declared and all their tools allowed. */
function project(servers: Servers): string {
  const files = { ...initFiles("my-agent") } as Record<string, string | object>;
  const agent = JSON.parse(String(files["agent.json"])) as {
    runner: { boundaries: { allowedTools: string[]; mcpServers?: Servers } };
  };
  agent.runner.boundaries.mcpServers = servers;
  agent.runner.boundaries.allowedTools.push(...Object.keys(servers).map((name) => `mcp__${name}`));
  files["agent.json"] = agent;
  const dir = makeProject("my-agent", files);
  dirs.push(dir);
  return dir;
}

const ENV = (extra: Record<string, string> = {}) => ({
  ANTHROPIC_BASE_URL: fake.url,
  ANTHROPIC_API_KEY: "test-key",
  ...GIT_IDENTITY,
  ...extra,
});

const plan = reply.json({
  stepId: "initial.work",
  summary: "Looked around.",
  plan: { approach: "Nothing to change." },
  next_action: { action: "next", reason: "planned" },
});
const handoff = reply.json({
  stepId: "continuation.work",
  summary: "Nothing to do.",
  work: { description: "none", files: [] },
  next_action: { action: "handoff", reason: "done" },
});
const closing = reply.json({
  stepId: "closure.done",
  summary: "Finished.",
  closure: { committed: true, report: "nothing changed" },
  next_action: { action: "closing", reason: "complete" },
});

interface WireBlock {
  type: string;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
  name?: string;
}

/** Every tool_result the fake received, by tool_use id (the model's view of each call). */
function toolResults(): Map<string, { text: string; isError: boolean }> {
  const found = new Map<string, { text: string; isError: boolean }>();
  for (const request of fake.messageRequests()) {
    const body = request.body as { messages: { content: unknown }[] };
    for (const message of body.messages) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content as WireBlock[]) {
        if (block.type !== "tool_result" || block.tool_use_id === undefined) continue;
        const text =
          typeof block.content === "string" ? block.content : JSON.stringify(block.content);
        found.set(block.tool_use_id, { text, isError: block.is_error === true });
      }
    }
  }
  return found;
}

function toolNamesOffered(): string[] {
  const body = fake.messageRequests()[0]?.body as { tools?: { name: string }[] };
  return (body.tools ?? []).map((tool) => tool.name);
}

describe("an MCP filesystem server configured with /", () => {
  it("is offered as mcp__files__* and still cannot read the hidden home or write outside the working directory", async () => {
    const home = tempDir("mcp-home");
    const outside = tempDir("mcp-outside");
    dirs.push(home, outside);
    writeFileSync(path.join(home, "secret.txt"), "home secret\n");
    const cwd = project({ files: { command: process.execPath, args: [FILESYSTEM, "/"] } });
    writeFileSync(path.join(cwd, "inside.txt"), "inside the working directory\n");
    git(cwd, "add", "inside.txt");
    git(cwd, "commit", "-qm", "inside");
    fake.enqueue(
      reply.toolUse([
        {
          id: "toolu_inside",
          name: "mcp__files__read_text_file",
          input: { path: path.join(cwd, "inside.txt") },
        },
        {
          id: "toolu_home",
          name: "mcp__files__read_text_file",
          input: { path: path.join(home, "secret.txt") },
        },
        {
          id: "toolu_write",
          name: "mcp__files__write_file",
          input: { path: path.join(outside, "escaped.txt"), content: "escaped" },
        },
      ]),
      plan,
      handoff,
      closing,
    );
    const run = await spawnCli(["run", "my-agent", "--task", "look", "--json"], {
      cwd,
      env: ENV({ HOME: home }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(toolNamesOffered()).toEqual(
      expect.arrayContaining([
        "Read",
        "Bash",
        "mcp__files__read_text_file",
        "mcp__files__write_file",
      ]),
    );
    const results = toolResults();
    expect(results.get("toolu_inside")).toEqual({
      text: expect.stringContaining("inside the working directory"),
      isError: false,
    });
    // The home directory is an empty folder inside the sandbox; the rest of the file system is
    // read-only there, so the server's own "/ is allowed" does not matter.
    expect(results.get("toolu_home")?.isError).toBe(true);
    expect(results.get("toolu_home")?.text).not.toContain("home secret");
    expect(results.get("toolu_write")?.isError).toBe(true);
    expect(existsSync(path.join(outside, "escaped.txt"))).toBe(false);
  });
});

describe("the MCP everything server", () => {
  it("returns structured results, reports tool errors, and keeps the environment to what the entry declares", async () => {
    const cwd = project({
      everything: {
        command: process.execPath,
        args: [EVERYTHING, "stdio"],
        env: { DECLARED_VALUE: "declared-123" },
      },
    });
    fake.enqueue(
      reply.toolUse([
        {
          id: "toolu_struct",
          name: "mcp__everything__get-structured-content",
          input: { location: "New York" },
        },
        { id: "toolu_sum", name: "mcp__everything__get-sum", input: { a: 2, b: 40 } },
        { id: "toolu_bad", name: "mcp__everything__get-sum", input: { a: "two" } },
        { id: "toolu_env", name: "mcp__everything__get-env", input: {} },
        { id: "toolu_none", name: "mcp__everything__no-such-tool", input: {} },
      ]),
      plan,
      handoff,
      closing,
    );
    const run = await spawnCli(["run", "my-agent", "--task", "look", "--json"], {
      cwd,
      // USER and SHELL are what the SDK's stdio transport copies from climpt's environment by
      // itself; the server's command line unsets them since the entry does not declare them.
      env: ENV({
        UNDECLARED_HOST_VALUE: "host-only-456",
        USER: "user-sentinel-789",
        SHELL: "/bin/shell-sentinel",
      }),
    });
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults();
    expect(results.get("toolu_struct")?.isError).toBe(false);
    expect(results.get("toolu_struct")?.text).toMatch(/temperature/);
    expect(results.get("toolu_sum")).toEqual({
      text: expect.stringContaining("42"),
      isError: false,
    });
    expect(results.get("toolu_bad")?.isError).toBe(true);
    const env = results.get("toolu_env")?.text ?? "";
    expect(env).toContain("declared-123");
    expect(env).not.toContain("host-only-456");
    expect(env).not.toContain("test-key");
    expect(env).not.toContain("user-sentinel-789");
    expect(env).not.toContain("shell-sentinel");
    // A name no server offers never reaches a server: the tool loop answers it.
    expect(results.get("toolu_none")).toEqual({
      text: expect.stringContaining("Unknown tool"),
      isError: true,
    });
  });

  it("bounds a slow tool by --max-time and leaves no server behind", async () => {
    const token = `mcp-slow-${randomUUID()}`;
    const cwd = project({
      everything: { command: process.execPath, args: [EVERYTHING, "stdio", token] },
    });
    fake.enqueue(
      reply.toolUse({
        id: "toolu_slow",
        name: "mcp__everything__trigger-long-running-operation",
        input: { duration: 600, steps: 5 },
      }),
      plan,
    );
    const started = Date.now();
    const run = await spawnCli(
      ["run", "my-agent", "--task", "look", "--json", "--max-time", "8s"],
      { cwd, env: ENV() },
    );
    const elapsed = Date.now() - started;
    expect(run.code).toBe(1);
    expect((onlyJson(run.stdout) as { error?: { code: string } }).error?.code).toBe(
      "AGENT_BUDGET_EXCEEDED",
    );
    expect(elapsed).toBeLessThan(120_000);
    expect(await waitUntil(() => processesWith(token).length === 0, 60_000)).toBe(true);
  });
});

/** Whether the run's journal has an event of `type` mentioning `text`. */
function journalHas(cwd: string, text: string, type: string): boolean {
  const dir = path.join(cwd, "tmp/climpt/logs/my-agent");
  if (!existsSync(dir)) return false;
  return readdirSync(dir).some((name) =>
    readFileSync(path.join(dir, name), "utf8")
      .split("\n")
      .some((line) => line.includes(`"type":"${type}"`) && line.includes(text)),
  );
}

/** Processes whose arguments contain `text`. */
function processesWith(text: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (args.includes(text)) found.push(args.replaceAll("\0", " "));
    } catch {
      // gone while we looked
    }
  }
  return found;
}

describe("durability of MCP calls", () => {
  it("resumes after kill -9 during an MCP call: the server dies with climpt, and a read-only call runs again", async () => {
    const token = `mcp-kill-${randomUUID()}`;
    const cwd = project({
      everything: { command: process.execPath, args: [EVERYTHING, "stdio", token] },
    });
    fake.enqueue(
      reply.toolUse({
        id: "toolu_long",
        name: "mcp__everything__trigger-long-running-operation",
        input: { duration: 12, steps: 3 },
      }),
      reply.hang(),
    );
    const killed = await spawnCli(["run", "my-agent", "--task", "look", "--json"], {
      cwd,
      env: ENV(),
      onSpawn: (child) => {
        // Killed once the journal holds the call (its tool_call event, after the reply that asked
        // for it was made durable) and the server runs: the call is in flight, never on a guess.
        const timer = setInterval(() => {
          if (processesWith(token).length === 0 || !journalHas(cwd, '"toolu_long"', "tool_call"))
            return;
          clearInterval(timer);
          child.kill("SIGKILL");
        }, 20);
        child.on("close", () => clearInterval(timer));
      },
    });
    expect(killed.signal).toBe("SIGKILL");
    expect(await waitUntil(() => processesWith(token).length === 0, 60_000)).toBe(true);
    const runId = /run (\S+)\)/.exec(killed.stderr)?.[1] as string;

    fake.reset();
    // On resume the recorded reply is served from the journal; its call is read-only (the
    // server's annotations say so), so it runs again, now quickly.
    fake.enqueue(plan, handoff, closing);
    const resumed = await spawnCli(["resume", runId, "--json"], { cwd, env: ENV() });
    expect(resumed.code, resumed.stderr).toBe(0);
    const first = fake.messageRequests()[0]?.body as { messages: { content: unknown }[] };
    const answer = JSON.stringify(first.messages[2]?.content);
    expect(answer).toContain("toolu_long");
    expect(answer).not.toContain("RUN-RESUME-004");
    expect(answer).toMatch(/Long running operation completed/i);
    expect(await waitUntil(() => processesWith(token).length === 0, 60_000)).toBe(true);
  });

  it("replays a recorded run offline without starting any server", async () => {
    const cwd = project({
      everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
    });
    const cassette = path.join(tempDir("mcp-cassette"), "run.jsonl");
    dirs.push(path.dirname(cassette));
    fake.enqueue(
      reply.toolUse([
        { id: "toolu_echo", name: "mcp__everything__echo", input: { message: "recorded" } },
        { id: "toolu_sum", name: "mcp__everything__get-sum", input: { a: 1, b: 2 } },
      ]),
      plan,
      handoff,
      closing,
    );
    const recorded = await spawnCli(
      ["run", "my-agent", "--task", "look", "--json", "--record", cassette],
      { cwd, env: ENV() },
    );
    expect(recorded.code, recorded.stderr).toBe(0);

    // The server's command now cannot start: a replay that started it would fail TOOL-MCP-001.
    const agentFile = path.join(cwd, ".agent/my-agent/agent.json");
    const agent = JSON.parse(readFileSync(agentFile, "utf8"));
    agent.runner.boundaries.mcpServers.everything.command = path.join(cwd, "no-such-server");
    writeFileSync(agentFile, JSON.stringify(agent, null, 2));
    git(cwd, "commit", "-qam", "server gone");
    const replayed = await spawnCli(
      ["run", "my-agent", "--task", "look", "--json", "--replay", cassette],
      { cwd, env: { ...GIT_IDENTITY, ANTHROPIC_BASE_URL: "http://127.0.0.1:9" } },
    );
    expect(replayed.code, replayed.stderr).toBe(0);
    const journalDir = path.join(cwd, "tmp/climpt/logs/my-agent");
    const runId = (onlyJson(replayed.stdout) as { runId: string }).runId;
    const journal = readFileSync(path.join(journalDir, `${runId}.jsonl`), "utf8");
    expect(journal).toContain("Echo: recorded");
    expect(journal).not.toContain("TOOL-MCP");
  });
});

describe("climpt validate and MCP servers", () => {
  it("reports an undeclared server always, and with --check-mcp a tool the running server does not offer", async () => {
    const cwd = project({ everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } });
    const agentFile = path.join(cwd, ".agent/my-agent/agent.json");
    const agent = JSON.parse(readFileSync(agentFile, "utf8"));
    agent.runner.boundaries.allowedTools.push("mcp__everything__ech0");
    writeFileSync(agentFile, JSON.stringify(agent, null, 2));
    git(cwd, "commit", "-qam", "a typo");
    const plain = await spawnCli(["validate", "my-agent", "--json"], { cwd, env: ENV() });
    expect(plain.code, plain.stderr).toBe(0);

    const checked = await spawnCli(["validate", "my-agent", "--json", "--check-mcp"], {
      cwd,
      env: ENV(),
    });
    expect(checked.code).toBe(2);
    const problems = (onlyJson(checked.stdout) as { problems: { code: string; path?: string }[] })
      .problems;
    expect(problems).toEqual([
      expect.objectContaining({
        code: "TOOL-MCP-006",
        path: "$.runner.boundaries.allowedTools[7]",
      }),
    ]);

    agent.runner.boundaries.allowedTools.push("mcp__evrything");
    writeFileSync(agentFile, JSON.stringify(agent, null, 2));
    const unknown = await spawnCli(["validate", "my-agent", "--json"], { cwd, env: ENV() });
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toContain("AC-MCP-003");
  });
});

describe("the mcp-notes example", () => {
  it("replays its cassette offline: the npx server is never started, NOTES.md is committed", async () => {
    const { makeSampleRepo } = (await import(
      path.join(REPO_ROOT, "scripts", "sample-repo.mjs")
    )) as { makeSampleRepo: () => string };
    const repo = makeSampleRepo();
    dirs.push(repo);
    const run = await spawnCli(
      [
        "run",
        path.join(EXAMPLES, "mcp-notes"),
        "--cwd",
        repo,
        "--task",
        "Write NOTES.md about this repository",
        "--replay",
        path.join(REPO_ROOT, "examples", "cassettes", "mcp-notes.jsonl"),
        "--json",
      ],
      { cwd: repo, env: { ...GIT_IDENTITY, ANTHROPIC_API_KEY: "" } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("mcp__files__read_text_file README.md");
    expect(run.stderr).not.toContain("TOOL-MCP");
    expect(git(repo, "log", "--format=%s", "-1")).toBe("Add NOTES.md");
  });
});
