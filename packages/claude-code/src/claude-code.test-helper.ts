/** Builders shared by this package's tests (not exported from the package). */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AgentDefinition, JsonSchema, Step, StepKind, StepPermissions } from "@climpt/model";
import {
  agentOf,
  type FakeAnthropic,
  type FakeRequest,
  startFakeAnthropic,
  stepOf,
  useTempDirs as useTempDirsAfter,
} from "@climpt/testing";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { type ClaudeCodeSettings, createClaudeCodeExecutor } from "./claude-code-executor.ts";

export function agentDefinition(overrides: Partial<AgentDefinition> = {}): AgentDefinition {
  return agentOf({
    shape: "flat",
    verdict: { type: "detect:graph", declaredType: "stepMachine", config: {} },
    permissionMode: "acceptEdits",
    ...overrides,
  });
}

export function step(id: string, kind: StepKind, permissions: StepPermissions = {}): Step {
  return stepOf(id, { kind, permissions });
}

export const INTENT_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    next_action: {
      type: "object",
      properties: { action: { type: "string", enum: ["next", "repeat", "closing"] } },
      required: ["action"],
    },
    summary: { type: "string" },
  },
  required: ["next_action", "summary"],
};

/** A fresh temporary directory (real path) per call, removed after the test. */
export function useTempDirs(): (prefix?: string) => string {
  return useTempDirsAfter(afterEach, "climpt-cc-");
}

/**
 * A fake Messages API for each test, and Claude Code settings that point the real binary at it:
 * a temporary HOME and CLAUDE_CONFIG_DIR (nothing of this machine's Claude Code setup leaks in or
 * is written to), a dummy key, and one retry so scripted API errors end quickly. The fake is
 * closed after each test: a session a timed-out test left running then fails on a closed port
 * instead of taking the next test's scripted replies.
 */
export function useFakeClaudeCode(): {
  fake: () => FakeAnthropic;
  settings: (
    overrides?: ClaudeCodeSettings & { readonly envExtra?: Record<string, string> },
  ) => ClaudeCodeSettings;
  home: () => string;
} {
  let fake: FakeAnthropic | undefined;
  let home: string | undefined;
  beforeAll(() => {
    home = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-cc-home-")));
  });
  afterAll(() => {
    if (home !== undefined) rmSync(home, { recursive: true, force: true });
  });
  beforeEach(async () => {
    fake = await startFakeAnthropic();
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  return {
    fake: () => {
      if (fake === undefined) throw new Error("the fake API is not started");
      return fake;
    },
    home: () => home ?? "",
    settings: (overrides = {}) => {
      const { envExtra, ...rest } = overrides;
      return {
        env: {
          PATH: process.env.PATH,
          HOME: home,
          CLAUDE_CONFIG_DIR: path.join(home ?? "", ".claude"),
          ANTHROPIC_BASE_URL: fake?.url,
          ANTHROPIC_API_KEY: DUMMY_KEY,
          ...envExtra,
        },
        maxRetries: 1,
        ...rest,
      };
    },
  };
}

export const DUMMY_KEY = "sk-ant-climpt-test-0123456789";

export { createClaudeCodeExecutor };

/** The /v1/messages requests of the main conversation, in order. */
export function conversationRequests(fake: FakeAnthropic): readonly FakeRequest[] {
  return fake.messageRequests();
}

/** The content blocks of the last message of a request. */
export function lastMessageBlocks(request: FakeRequest | undefined): unknown[] {
  const body = request?.body as { messages?: { content?: unknown }[] } | undefined;
  const last = body?.messages?.at(-1)?.content;
  return Array.isArray(last) ? last : [last];
}
