import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { JsonValue } from "@climpt/model";
import { loadAgentDefinition, type RunResult, StepFlowRunner } from "@climpt/runner";
import type { ModelClient, ModelRequest, ModelResponse } from "@climpt/sdk-adapter";

/**
 * A long run for the viewer's size tests and its first-paint benchmark: a two-step agent whose
 * work step the model repeats `iterations - 1` times (each time with a fresh prompt and a real
 * handoff), then closes. The runner runs it for real (journal included); only the model is an
 * in-process stand-in, because a thousand round trips through an HTTP fake would measure the
 * fake, not the page.
 */
function writeLoopAgent(iterations: number): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-viewer-long-")));
  const dir = path.join(root, "long-loop");
  const write = (relative: string, content: unknown) => {
    const file = path.join(dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  };
  const schema = (intents: string[]) => ({
    type: "object",
    required: ["next_action", "progress"],
    properties: {
      next_action: {
        type: "object",
        required: ["action"],
        properties: { action: { type: "string", enum: intents }, reason: { type: "string" } },
      },
      progress: {
        type: "object",
        properties: { done: { type: "number" }, note: { type: "string" } },
      },
    },
  });
  write("agent.json", {
    name: "long-loop",
    description: "Repeats one work step many times, then closes.",
    parameters: {},
    limits: { maxIterations: iterations + 5 },
    runner: {
      flow: { systemPromptPath: "prompts/system.md", prompts: { registry: "steps_registry.json" } },
      verdict: { type: "detect:graph", config: {} },
      boundaries: { allowedTools: ["Read"], permissionMode: "acceptEdits" },
      logging: { directory: "tmp/climpt/logs/long-loop", format: "jsonl" },
    },
  });
  write("prompts/system.md", "You work through a long list, one item per step.");
  const gate = (intents: string[], handoff: string[]) => ({
    allowedIntents: intents,
    intentSchemaRef: "#/properties/next_action/properties/action",
    intentField: "next_action.action",
    handoffFields: handoff,
    failFast: true,
  });
  write("steps_registry.json", {
    agentId: "long-loop",
    version: "1.0.0",
    c1: "steps",
    entryStep: "initial.work",
    steps: {
      "initial.work": {
        stepId: "initial.work",
        name: "Work through one item",
        stepKind: "work",
        c2: "initial",
        c3: "work",
        edition: "default",
        outputSchemaRef: { file: "loop.schema.json", schema: "initial.work" },
        structuredGate: gate(["next", "repeat"], ["progress.done", "progress.note"]),
        transitions: { next: { target: "closure.done" }, repeat: { target: "initial.work" } },
      },
      "closure.done": {
        stepId: "closure.done",
        name: "Close",
        stepKind: "closure",
        c2: "closure",
        c3: "done",
        edition: "default",
        outputSchemaRef: { file: "loop.schema.json", schema: "closure.done" },
        structuredGate: gate(["closing"], []),
        transitions: { closing: { target: null } },
      },
    },
  });
  write("schemas/loop.schema.json", {
    "initial.work": schema(["next", "repeat"]),
    "closure.done": schema(["closing"]),
  });
  const items = Array.from(
    { length: 12 },
    (_, index) => `- item detail line ${index + 1}: look at it, note what you found.`,
  ).join("\n");
  write(
    "prompts/steps/initial/work/f_default.md",
    `# Work through the next item\n\nThis is iteration {uv-iteration}.\n\n${items}\n\nAnswer with next_action.action = repeat while items remain, next when the list is done.\n`,
  );
  write("prompts/steps/closure/done/f_default.md", "# Close\n\nSay closing.\n");
  return dir;
}

/** Answers every work step with `repeat` until the last, then `next`, then `closing`. */
class LoopModel implements ModelClient {
  private done = 0;

  constructor(private readonly iterations: number) {}

  call(request: ModelRequest): Promise<ModelResponse> {
    const closing = JSON.stringify(request.outputSchema ?? {}).includes('"closing"');
    this.done += closing ? 0 : 1;
    const output: JsonValue = closing
      ? {
          next_action: { action: "closing", reason: "The list is done." },
          progress: { done: this.done },
        }
      : {
          next_action: {
            action: this.done < this.iterations - 1 ? "repeat" : "next",
            reason: `Item ${this.done} handled.`,
          },
          progress: { done: this.done, note: `Item ${this.done}: checked, nothing to change.` },
        };
    const text = JSON.stringify(output);
    return Promise.resolve({
      content: [{ type: "text", text }],
      text,
      toolCalls: [],
      structuredOutput: output,
      usage: {
        inputTokens: 420,
        outputTokens: 48,
        cacheCreationInputTokens: 0,
        cacheReadInputTokens: 1200,
      },
      costUsd: 0.0011,
      priced: true,
      stopReason: "end_turn",
      model: request.model,
    });
  }
}

/** Runs the loop agent for `iterations` iterations; returns the result with its journal. */
export async function runLongRun(
  iterations: number,
): Promise<RunResult & { readonly journalPath: string }> {
  const agentDir = writeLoopAgent(iterations);
  const cwd = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-viewer-long-cwd-")));
  const loaded = await loadAgentDefinition(agentDir);
  const result = await new StepFlowRunner(loaded, {
    modelClient: new LoopModel(iterations),
    fsync: false,
  }).run({ args: {}, cwd });
  if (result.journalPath === null) throw new Error("the long run wrote no journal");
  return { ...result, journalPath: result.journalPath };
}
