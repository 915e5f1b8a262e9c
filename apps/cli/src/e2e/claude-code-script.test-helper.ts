import * as path from "node:path";
import {
  type FakeAnthropic,
  type FakeContentBlock,
  type FakeReply,
  type FakeRequest,
  startFakeAnthropic,
} from "@climpt/testing";
import { afterEach, beforeEach } from "vitest";
import { stopRunningClis } from "./spawn-cli.test-helper.ts";

/**
 * The hang limit of a test that runs Claude Code sessions (vitest.shared.ts has the default).
 * Every step and every check is a fresh Claude Code process: about 2 s of CPU before its first
 * request (measured alone: 1.5 s for a `claude -p` that answers one line). The check-dialect
 * test, when it ran 10 sessions, took 20 s alone, 130 s on a 2-core machine with four CPU-bound
 * loops beside the test suite, and more than 180 s with a second suite beside those.
 */
export const CLAUDE_CODE_HANG_LIMIT_MS = 600_000;

/**
 * A fresh fake Messages API for each test, closed after it, and every CLI the test started
 * killed with its Claude Code processes. A test that timed out thus cannot leave a session that
 * takes the next test's scripted replies.
 */
export function useFakeApiPerTest(): () => FakeAnthropic {
  let fake: FakeAnthropic | undefined;
  beforeEach(async () => {
    fake = await startFakeAnthropic();
  });
  afterEach(async () => {
    stopRunningClis();
    await fake?.close();
    fake = undefined;
  });
  return () => {
    if (fake === undefined) throw new Error("the fake API runs only inside a test");
    return fake;
  };
}

function isIntentJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      if (Object.hasOwn(value, "next_action")) return value as Record<string, unknown>;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

let structuredIds = 0;

/**
 * A fake-model script written for the default executor, as a model driving Claude Code would
 * answer: the final JSON reply becomes a call of Claude Code's `StructuredOutput` tool (Claude
 * Code has no free-text structured output), file paths become absolute (its file tools take
 * absolute paths), and an Edit of a file the session has not read is preceded by a Read (Claude
 * Code refuses to edit a file unread in the same session, and every step is a fresh session).
 * `git add -A` becomes `git add -u`: inside Claude Code's sandbox the working directory holds
 * the sandbox's mount points for files it protects (`.bash_profile`, `.gitconfig`, …), which
 * `git add -A` refuses to stage. The steps, their tools and their outputs stay the same.
 */
export function scriptForClaudeCode(replies: readonly FakeReply[], cwd: string): FakeReply[] {
  const out: FakeReply[] = [];
  let read = new Set<string>();
  for (const reply of replies) {
    if (reply.kind !== "message") {
      out.push(reply);
      continue;
    }
    const content: FakeContentBlock[] = [];
    let endsStep = false;
    for (const block of reply.content) {
      if (block.type === "text") {
        const output = isIntentJson(block.text);
        if (output !== undefined) {
          endsStep = true;
          content.push({
            type: "tool_use",
            id: `toolu_structured_${++structuredIds}`,
            name: "StructuredOutput",
            input: output,
          });
          continue;
        }
      }
      if (block.type === "tool_use" && typeof block.input === "object" && block.input !== null) {
        const input = { ...(block.input as Record<string, unknown>) };
        if (typeof input.command === "string") {
          input.command = input.command.replace("git add -A", "git add -u");
        }
        if (typeof input.file_path === "string") {
          const file = path.resolve(cwd, input.file_path);
          input.file_path = file;
          if (block.name === "Read") read.add(file);
          if (block.name === "Edit" && !read.has(file)) {
            out.push({
              kind: "message",
              content: [
                {
                  type: "tool_use",
                  id: `toolu_read_${++structuredIds}`,
                  name: "Read",
                  input: { file_path: file },
                },
              ],
            });
            read.add(file);
          }
        }
        content.push({ ...block, input });
        continue;
      }
      content.push(block);
    }
    out.push({ ...reply, content });
    if (endsStep) read = new Set();
  }
  return out;
}

/** Whether a request's last message carries the result of the tool call `toolUseId`. */
export function carriesToolResult(request: FakeRequest, toolUseId: string): boolean {
  const messages = (request.body as { messages?: { content?: unknown }[] } | undefined)?.messages;
  const last = messages?.at(-1)?.content;
  return (
    Array.isArray(last) &&
    last.some(
      (block: { type?: string; tool_use_id?: string }) =>
        block.type === "tool_result" && block.tool_use_id === toolUseId,
    )
  );
}

/** `METHOD path` of each request the fake received. */
export function requestSummary(requests: readonly FakeRequest[]): string[] {
  return requests.map((request) => `${request.method} ${request.path}`);
}
