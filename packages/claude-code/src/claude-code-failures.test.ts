/**
 * How a Claude Code session that goes wrong ends: always a coded error, with the same codes the
 * default executor uses for the same failure, and with the spend so far. Real binary, fake API.
 */
import { symlinkSync } from "node:fs";
import path from "node:path";
import { ClimptError } from "@climpt/model";
import { ModelError, StepError } from "@climpt/sdk-adapter";
import { reply } from "@climpt/testing";
import { describe, expect, it, vi } from "vitest";
import {
  agentDefinition,
  createClaudeCodeExecutor,
  INTENT_SCHEMA,
  step,
  useFakeClaudeCode,
  useTempDirs,
} from "./claude-code.test-helper.ts";
import type { ClaudeCodeStepInput } from "./claude-code-executor.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 13 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const claude = useFakeClaudeCode();
const tempDir = useTempDirs();

function input(cwd: string, extra: Partial<ClaudeCodeStepInput> = {}): ClaudeCodeStepInput {
  return {
    model: "sonnet",
    prompt: "Do the step.",
    outputSchema: INTENT_SCHEMA,
    cwd,
    agent: agentDefinition(),
    step: step("initial.issue", "work"),
    ...extra,
  };
}

async function failure(promise: Promise<unknown>): Promise<ClimptError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, "the step should have failed").toBeInstanceOf(ClimptError);
  return error as ClimptError;
}

describe("a step that ends without usable output", () => {
  it("is AC-STEP-001 when the model never calls StructuredOutput, after Claude Code asked once more", async () => {
    claude.fake().enqueue(reply.text("I am done."), reply.text("Really done."));
    const error = await failure(
      createClaudeCodeExecutor(claude.settings()).runStep(input(tempDir())),
    );
    expect(error).toBeInstanceOf(StepError);
    expect(error.code).toBe("AC-STEP-001");
    expect(error.message).toContain("Really done.");
    const spent = (error as StepError).step;
    expect(spent.calls).toBe(2);
    expect(spent.usage.outputTokens).toBeGreaterThan(0);
    expect(spent.costUsd).toBeGreaterThan(0);
    // The second request is Claude Code's own nudge: the equivalent of climpt's repair turn.
    const nudge = JSON.stringify(claude.fake().messageRequests()[1]?.body);
    expect(nudge).toContain("You MUST call the StructuredOutput tool");
  });

  it("is AC-STEP-005 when the model is still calling tools at maxTurns", async () => {
    const cwd = tempDir();
    claude.fake().setHandler(() => reply.toolUse({ name: "Glob", input: { pattern: "*" } }));
    const error = await failure(
      createClaudeCodeExecutor(claude.settings()).runStep(input(cwd, { maxTurns: 2 })),
    );
    expect(error.code).toBe("AC-STEP-005");
    expect((error as StepError).step.calls).toBe(2);
  });
});

describe("API failures Claude Code gives up on", () => {
  it("401 is AC-MODEL-001", async () => {
    claude.fake().setHandler(() => reply.error(401));
    const error = await failure(
      createClaudeCodeExecutor(claude.settings()).runStep(input(tempDir())),
    );
    expect(error).toBeInstanceOf(ModelError);
    expect(error.code).toBe("AC-MODEL-001");
    expect(error.message).toContain("claude-sonnet-5-5");
  });

  it("529 after Claude Code's retries is AC-MODEL-003, and maxRetries bounds the attempts", async () => {
    claude.fake().setHandler(() => reply.error(529));
    const error = await failure(
      createClaudeCodeExecutor(claude.settings({ maxRetries: 2 })).runStep(input(tempDir())),
    );
    expect(error.code).toBe("AC-MODEL-003");
    expect(claude.fake().messageRequests()).toHaveLength(3);
  });

  it("an abort during a model call ends the session as AC-MODEL-009", async () => {
    const controller = new AbortController();
    claude.fake().setHandler(() => {
      setTimeout(() => controller.abort(), 100);
      return reply.hang();
    });
    const error = await failure(
      createClaudeCodeExecutor(claude.settings()).runStep(
        input(tempDir(), { signal: controller.signal }),
      ),
    );
    expect(error.code).toBe("AC-MODEL-009");
    expect(claude.fake().messageRequests()).toHaveLength(1);
  });

  it("an already aborted signal starts no session", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(
      createClaudeCodeExecutor(claude.settings()).runStep(
        input(tempDir(), { signal: controller.signal }),
      ),
    );
    expect(error.code).toBe("AC-MODEL-009");
    expect(claude.fake().requests).toHaveLength(0);
  });
});

describe("Claude Code itself cannot run", () => {
  it("is AC-CC-001 when the binary does not exist", async () => {
    const error = await failure(
      createClaudeCodeExecutor(claude.settings({ executable: "/nonexistent/claude" })).runStep(
        input(tempDir()),
      ),
    );
    expect(error.code).toBe("AC-CC-001");
    expect(error.hint).toContain("platform package");
  });

  it("is AC-CC-002 when the sandbox cannot start, and no model call is made", async () => {
    // A PATH without bubblewrap and socat, which Claude Code's Linux sandbox needs.
    const bin = tempDir("climpt-cc-bin-");
    for (const name of ["sh", "bash", "env"])
      symlinkSync(path.join("/bin", name), path.join(bin, name));
    const error = await failure(
      createClaudeCodeExecutor(claude.settings({ envExtra: { PATH: bin } })).runStep(
        input(tempDir()),
      ),
    );
    expect(error.code).toBe("AC-CC-002");
    expect(error.message).toMatch(/bubblewrap|bwrap/);
    expect(error.hint).toContain('"off"');
    expect(claude.fake().messageRequests()).toHaveLength(0);
  });

  it("rejects settings it cannot use with AC-CC-004", () => {
    expect(() => createClaudeCodeExecutor({ settingSources: ["user", "team" as "user"] })).toThrow(
      expect.objectContaining({ code: "AC-CC-004" }),
    );
    expect(() => createClaudeCodeExecutor({ sandbox: "maybe" as "off" })).toThrow(
      expect.objectContaining({ code: "AC-CC-004" }),
    );
  });
});
