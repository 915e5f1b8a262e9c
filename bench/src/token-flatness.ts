/**
 * Row 4: input tokens per step across a 50-step run, through the real SDK against the fake
 * Messages API. Every step is a fresh conversation (system prompt + the step prompt), so what a
 * step sends must not grow with the steps before it; the system prompt and the tool definitions
 * are a cached prefix from the second step on.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { StepFlowRunner } from "@climpt/runner";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { loadChainAgent } from "./chain-agent.ts";
import { startChainFake } from "./chain-fake.ts";
import { median, slope } from "./stats.ts";

export interface TokenFlatness {
  readonly steps: number;
  /** Input tokens of each step's call: uncached + cache read + cache write. */
  readonly min: number;
  readonly median: number;
  readonly max: number;
  /** Least-squares tokens per step. */
  readonly slope: number;
  /** Of the input tokens of steps 2…n, the share read from the prompt cache. */
  readonly cacheReadShare: number;
}

export async function measureTokenFlatness(
  steps: number,
  parentDir: string,
): Promise<TokenFlatness> {
  const agent = await loadChainAgent(steps, parentDir);
  const fake = await startChainFake();
  const cwd = mkdtempSync(path.join(tmpdir(), "climpt-bench-tokens-"));
  const perStep: { total: number; cacheRead: number }[] = [];
  try {
    const runner = new StepFlowRunner(agent, {
      modelClient: createAnthropicClient({ apiKey: "sk-bench", baseURL: fake.url, maxRetries: 0 }),
      journalDir: false,
      onEvent: (event) => {
        if (event.type !== "model_response") return;
        const usage = event.usage;
        perStep.push({
          total: usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens,
          cacheRead: usage.cacheReadInputTokens,
        });
      },
    });
    const result = await runner.run({ cwd });
    if (!result.success || perStep.length !== steps) {
      throw new Error(`the ${steps}-step run did not run through: ${result.completionReason}`);
    }
  } finally {
    await fake.close();
    rmSync(cwd, { recursive: true, force: true });
  }
  const totals = perStep.map((step) => step.total);
  const later = perStep.slice(1);
  return {
    steps,
    min: Math.min(...totals),
    median: median(totals),
    max: Math.max(...totals),
    slope: slope(
      totals.map((_, index) => index + 1),
      totals,
    ),
    cacheReadShare:
      later.reduce((sum, step) => sum + step.cacheRead, 0) /
      later.reduce((sum, step) => sum + step.total, 0),
  };
}
