/**
 * `climpt run --executor claude-code`: the built CLI drives the real Claude Agent SDK, which
 * starts the real Claude Code binary of its platform package against the fake Messages API on
 * 127.0.0.1. Nothing is mocked; Claude Code gets a temporary HOME and config folder.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { loadFakeScript, reply } from "@climpt/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  CLAUDE_CODE_HANG_LIMIT_MS,
  carriesToolResult,
  requestSummary,
  scriptForClaudeCode,
  useFakeApiPerTest,
} from "./claude-code-script.test-helper.ts";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { onlyJson, REPO_ROOT, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

vi.setConfig({ testTimeout: CLAUDE_CODE_HANG_LIMIT_MS });

const fakeApi = useFakeApiPerTest();
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function sampleRepo(): string {
  const dir = tempDir("cc-sample");
  dirs.push(dir);
  cpSync(path.join(REPO_ROOT, "examples", "sample-repo"), dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "textkit: initial");
  return dir;
}

/** What Claude Code needs to reach the fake and nothing of this machine's own setup. */
function claudeCodeEnv(): Record<string, string> {
  const home = tempDir("cc-home");
  dirs.push(home);
  mkdirSync(path.join(home, ".claude"));
  return {
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
    ANTHROPIC_BASE_URL: fakeApi().url,
    ANTHROPIC_API_KEY: "sk-ant-climpt-test-0123456789",
    ...GIT_IDENTITY,
  };
}

interface HistoryEntry {
  readonly stepId: string;
  readonly intent: string | null;
  readonly transition: string;
}

function historyOf(result: Record<string, unknown>): HistoryEntry[] {
  const state = result.state as { history: HistoryEntry[] };
  return state.history.map(({ stepId, intent, transition }) => ({ stepId, intent, transition }));
}

const DEMO = ["run", "examples/agents/fix-bug", "--issue", "1", "--json"];

describe("the bundled demo through --executor claude-code", () => {
  it("fixes the sample repository with the same steps, intents and result shape as the default executor", async () => {
    const script = await loadFakeScript(path.join(REPO_ROOT, "examples/fake-models/fix-bug.json"));

    const fake = fakeApi();
    const messagesRepo = sampleRepo();
    fake.enqueue(...script.replies);
    const messages = await spawnCli([...DEMO, "--cwd", messagesRepo], {
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key", ...GIT_IDENTITY },
    });
    expect(messages.code, messages.stderr).toBe(0);
    const expected = onlyJson(messages.stdout);

    const repo = sampleRepo();
    fake.reset();
    fake.enqueue(...scriptForClaudeCode(script.replies, repo));
    const run = await spawnCli([...DEMO, "--cwd", repo, "--executor", "claude-code"], {
      env: claudeCodeEnv(),
    });
    expect(run.code, run.stderr).toBe(0);
    const result = onlyJson(run.stdout);

    expect(result).toMatchObject({ success: true, finalStepId: "closure.fix" });
    expect(historyOf(result)).toEqual(historyOf(expected));
    expect(Object.keys(result).sort()).toEqual(Object.keys(expected).sort());
    expect(Object.keys((result.state as { handoff: object }).handoff).sort()).toEqual(
      Object.keys((expected.state as { handoff: object }).handoff).sort(),
    );
    // The work really happened, through Claude Code's tools: fixed, committed, clean.
    expect(readFileSync(path.join(repo, "src/slugify.js"), "utf8")).toContain(
      '.replace(/^-+|-+$/g, "")',
    );
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(git(repo, "log", "--format=%s", "-1")).toBe(
      "fix: collapse and trim dashes in slugify (#1)",
    );
    // Usage and cost came back from Claude Code's calls into the run's totals.
    const usage = result.usage as {
      inputTokens: number;
      cacheReadInputTokens: number;
      cacheCreationInputTokens: number;
      costUsd: number;
    };
    expect(
      usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens,
    ).toBeGreaterThan(0);
    expect(usage.costUsd).toBeGreaterThan(0);

    // Claude Code spoke to the fake only through streamed POST /v1/messages, one per model call.
    const requests = fake.requests;
    // Every scripted reply was taken by exactly one request: 14, plus the Read before the Edit.
    expect(fake.pending()).toBe(0);
    expect(fake.messageRequests()).toHaveLength(15);
    expect(new Set(requestSummary(requests))).toEqual(new Set(["POST /v1/messages"]));
    expect(
      requests.every((request) => (request.body as { stream?: boolean }).stream === true),
    ).toBe(true);
  });
});

interface ToolResultBlock {
  readonly type: string;
  readonly tool_use_id?: string;
  readonly is_error?: boolean;
  readonly content?: unknown;
}

function toolResultsOf(body: unknown): ToolResultBlock[] {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  const last = messages.at(-1)?.content;
  return Array.isArray(last)
    ? (last as ToolResultBlock[]).filter((block) => block.type === "tool_result")
    : [];
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return Array.isArray(content)
    ? content.map((block: { text?: string }) => block.text ?? "").join("")
    : "";
}

describe("climpt's tool policy through Claude Code's hook", () => {
  it("refuses a work step's `gh issue close` and a Write outside the working directory; the model reads tool errors", async () => {
    const repo = sampleRepo();
    const outside = tempDir("cc-outside");
    dirs.push(outside);
    const outsideFile = path.join(outside, "escaped.txt");
    const fake = fakeApi();
    fake.enqueue(
      {
        kind: "message",
        content: [
          { type: "text", text: "Closing the issue first." },
          {
            type: "tool_use",
            id: "toolu_close",
            name: "Bash",
            input: { command: "touch closed.marker; gh issue close 1", description: "close" },
          },
          {
            type: "tool_use",
            id: "toolu_escape",
            name: "Write",
            input: { file_path: outsideFile, content: "out of bounds\n" },
          },
        ],
      },
      reply.toolUse({
        name: "StructuredOutput",
        input: {
          stepId: "initial.analyze",
          summary: "Both were refused.",
          analysis: { cause: "unknown", files: [], plan: "none" },
          next_action: { action: "next", reason: "go on" },
        },
      }),
    );
    // One iteration: the step under test, then the cap ends the run.
    const run = await spawnCli(
      [...DEMO, "--cwd", repo, "--executor", "claude-code", "--max-iterations", "1"],
      { env: claudeCodeEnv() },
    );
    const result = onlyJson(run.stdout);

    // Nothing ran: no marker, no file outside.
    expect(existsSync(path.join(repo, "closed.marker"))).toBe(false);
    expect(existsSync(outsideFile)).toBe(false);

    // The next request carries both refusals back to the model as error tool results.
    const answer = fake
      .messageRequests()
      .find((request) => carriesToolResult(request, "toolu_close"));
    expect(answer, run.stderr).toBeDefined();
    const results = toolResultsOf(answer?.body);
    const byId = new Map(results.map((block) => [block.tool_use_id, block]));
    expect(byId.get("toolu_close")?.is_error).toBe(true);
    expect(textOf(byId.get("toolu_close")?.content)).toContain("TOOL-POLICY-003: ");
    expect(byId.get("toolu_escape")?.is_error).toBe(true);
    expect(textOf(byId.get("toolu_escape")?.content)).toContain("TOOL-POLICY-004: ");

    // The journal records them as the default executor's toolbox would: tool_refused events.
    const journal = readFileSync(String(result.journalPath), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; tool?: string; reason?: string });
    const refused = journal.filter((event) => event.type === "tool_refused");
    expect(refused.map((event) => [event.tool, event.reason?.slice(0, 15)])).toEqual([
      ["Bash", "TOOL-POLICY-003"],
      ["Write", "TOOL-POLICY-004"],
    ]);
    expect(run.stderr).toContain("TOOL-POLICY-003");
  });
});
