/**
 * Warm start: the Claude Code executor, given the run's steps, starts the next step's session
 * while the runner checks and routes, and a step only runs in a session started for its own
 * policy. Observed from outside: a SessionStart hook in the user's Claude Code settings logs every
 * session start (it runs when the process starts, before any prompt), the fake API logs what
 * each session sent, and /proc shows which Claude Code processes are alive. Real binary.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { JsonSchema, Step } from "@climpt/model";
import type { StepExecutionObserver, StepExecutionRequest } from "@climpt/protocol";
import { reply, stepOf, waitFor } from "@climpt/testing";
import { createToolbox } from "@climpt/tools";
import { describe, expect, it, vi } from "vitest";
import {
  agentDefinition,
  INTENT_SCHEMA,
  useFakeClaudeCode,
  useTempDirs,
} from "./claude-code.test-helper.ts";
import { createClaudeCodeStepExecutor } from "./claude-code-step-executor.ts";

// Each test runs two or three Claude Code sessions on a busy shared machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 90_000 });

const claude = useFakeClaudeCode();
const tempDir = useTempDirs();

const gate = {
  allowedIntents: ["next", "repeat", "closing"] as const,
  intentSchemaRef: "#/properties/next_action/properties/action",
  intentField: "next_action.action",
  handoffFields: [],
  failFast: true,
};

function gateStep(id: string, target: string | null, overrides: Partial<Step> = {}): Step {
  return stepOf(id, {
    kind: "work",
    outputSchema: INTENT_SCHEMA as JsonSchema,
    gate: { ...gate, allowedIntents: [...gate.allowedIntents] },
    transitions:
      target === null
        ? { closing: { kind: "target", target: null } }
        : { next: { kind: "target", target } },
    ...overrides,
  });
}

const answer = (action: string) =>
  reply.toolUse({ name: "StructuredOutput", input: { next_action: { action }, summary: "ok" } });

/** A SessionStart hook in the test HOME's user settings: one line per session start. */
function logSessionStarts(): () => string[] {
  const log = path.join(claude.home(), "session-starts.log");
  writeFileSync(log, "");
  mkdirSync(path.join(claude.home(), ".claude"), { recursive: true });
  writeFileSync(
    path.join(claude.home(), ".claude", "settings.json"),
    JSON.stringify({
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: `date +%s%3N >> '${log}'` }] }],
      },
    }),
  );
  return () =>
    readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line !== "");
}

/** Live processes started with this test HOME's Claude Code config (Claude Code and its tools). */
function claudeProcesses(): number[] {
  const marker = `CLAUDE_CONFIG_DIR=${path.join(claude.home(), ".claude")}`;
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      const state = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.[0];
      if (environ.includes(marker) && state !== "Z") pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours
    }
  }
  return pids;
}

interface Phase {
  readonly refusals: string[];
}

function request(cwd: string, step: Step, signal: AbortSignal, phase: Phase): StepExecutionRequest {
  const agent = agentDefinition();
  const observer: StepExecutionObserver = {
    modelRequest: () => undefined,
    modelResponse: () => undefined,
    toolCall: () => undefined,
    toolResult: () => undefined,
    durable: async () => undefined,
    toolRefused: ({ reason }) => {
      phase.refusals.push(reason);
    },
  };
  return {
    model: "claude-sonnet-4-5",
    system: "You are a test agent.",
    prompt: `Do step ${step.id}.`,
    outputSchema: step.outputSchema,
    tools: createToolbox({ cwd, agent, step }),
    maxTurns: undefined,
    callTimeoutMs: undefined,
    signal,
    replay: undefined,
    observer,
    step,
    agent,
    cwd,
  };
}

function firstUserText(index: number): string {
  const body = claude.fake().messageRequests()[index]?.body as {
    messages: { role: string; content: string | { type: string; text?: string }[] }[];
  };
  const first = body.messages[0]?.content ?? "";
  return typeof first === "string" ? first : first.map((block) => block.text ?? "").join("\n");
}

function toolNames(index: number): string[] {
  const body = claude.fake().messageRequests()[index]?.body as { tools?: { name: string }[] };
  return (body.tools ?? [])
    .map((tool) => tool.name)
    .filter((name) => name !== "DeferredToolPlaceholder" && name !== "StructuredOutput")
    .sort();
}

describe("warm start", () => {
  it("starts the next step's session before the runner hands the step over, and the step runs in it", async () => {
    const starts = logSessionStarts();
    const cwd = tempDir();
    const steps = {
      "initial.a": gateStep("initial.a", "continuation.b"),
      "continuation.b": gateStep("continuation.b", null),
    };
    const executor = createClaudeCodeStepExecutor(claude.settings(), { steps });
    const run = new AbortController();
    const a: Phase = { refusals: [] };
    const b: Phase = { refusals: [] };
    try {
      claude.fake().enqueue(answer("next"));
      const first = await executor.execute(request(cwd, steps["initial.a"], run.signal, a));
      expect(first.ok).toBe(true);
      // The runner's validators and router would run now: step b's session starts meanwhile,
      // with nobody asking for it yet. Without warm start nothing starts until b is handed over.
      await waitFor(() => starts().length === 2, {
        what: "the next step's session to start",
        limitMs: 60_000,
      });
      const handover = Date.now();
      expect(Number(starts()[1])).toBeLessThanOrEqual(handover);

      claude
        .fake()
        .enqueue(
          reply.toolUse({ name: "Bash", input: { command: "gh issue close 1" } }),
          answer("closing"),
        );
      const second = await executor.execute(request(cwd, steps["continuation.b"], run.signal, b));
      expect(second.ok).toBe(true);
      // b ran in the session started ahead: no third session, b's own prompt, and the policy
      // check of that session reported to b (the boundary refusal), not to a.
      expect(starts()).toHaveLength(2);
      expect(claude.fake().messageRequests()).toHaveLength(3);
      expect(firstUserText(1)).toContain("Do step continuation.b.");
      expect(b.refusals).toEqual([expect.stringMatching(/^TOOL-POLICY-003/)]);
      expect(a.refusals).toEqual([]);
    } finally {
      executor.close();
    }
    // b leads nowhere: nothing is left running.
    await waitFor(() => claudeProcesses().length === 0, {
      what: "every Claude Code process to end",
    });
  });

  it("a step the route did not predict runs in a fresh session with its own prompt and policy", async () => {
    const starts = logSessionStarts();
    const cwd = tempDir();
    const steps: Record<string, Step> = {
      "initial.a": gateStep("initial.a", "continuation.b"),
      "continuation.b": gateStep("continuation.b", null),
      // Where the runner goes instead (a validator failed, say): a read-only step.
      "verification.c": gateStep("verification.c", null, {
        kind: "verification",
        permissions: { permissionMode: "plan" },
      }),
    };
    const executor = createClaudeCodeStepExecutor(claude.settings(), { steps });
    const run = new AbortController();
    const c: Phase = { refusals: [] };
    try {
      claude.fake().enqueue(answer("next"));
      await executor.execute(
        request(cwd, steps["initial.a"] as Step, run.signal, { refusals: [] }),
      );
      await waitFor(() => starts().length === 2, {
        what: "b's session to start ahead",
        limitMs: 60_000,
      });

      claude.fake().enqueue(
        reply.toolUse({
          name: "Write",
          input: { file_path: path.join(cwd, "c.txt"), content: "x" },
        }),
        answer("closing"),
      );
      const result = await executor.execute(
        request(cwd, steps["verification.c"] as Step, run.signal, c),
      );
      expect(result.ok).toBe(true);
      // c got a session of its own (a third start) with c's prompt and c's read-only tools;
      // the write its model tried anyway was refused, as plan mode requires.
      expect(starts()).toHaveLength(3);
      expect(firstUserText(1)).toContain("Do step verification.c.");
      expect(toolNames(1)).not.toContain("Write");
      expect(toolNames(1)).not.toContain("Bash");
      expect(toolNames(1)).toContain("Read");
      expect(existsSync(path.join(cwd, "c.txt"))).toBe(false);
    } finally {
      executor.close();
    }
    // The session started for b was closed, not left waiting.
    await waitFor(() => claudeProcesses().length === 0, { what: "b's unused session to end" });
  });

  it("closes a session started ahead when the run is aborted", async () => {
    const starts = logSessionStarts();
    const cwd = tempDir();
    const steps = {
      "initial.a": gateStep("initial.a", "continuation.b"),
      "continuation.b": gateStep("continuation.b", null),
    };
    const executor = createClaudeCodeStepExecutor(claude.settings(), { steps });
    const run = new AbortController();
    try {
      claude.fake().enqueue(answer("next"));
      await executor.execute(request(cwd, steps["initial.a"], run.signal, { refusals: [] }));
      await waitFor(() => starts().length === 2, {
        what: "b's session to start ahead",
        limitMs: 60_000,
      });
      expect(claudeProcesses().length).toBeGreaterThan(0);
      run.abort();
      // Well within the 120 s an unclaimed session may otherwise wait.
      await waitFor(() => claudeProcesses().length === 0, {
        what: "the unused session to end",
        limitMs: 30_000,
      });
    } finally {
      executor.close();
    }
  });
});
