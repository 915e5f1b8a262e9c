import {
  createAnthropicClient,
  createRecordingClient,
  createReplayClient,
  type ModelClient,
} from "@climpt/sdk-adapter";
import type { RunnerOptions, RunOptions } from "./run-options.ts";

/**
 * The client a run talks to: the one given, else Anthropic through the official SDK
 * (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL). `--replay` serves a cassette strictly and never
 * reaches the network; `--record` writes every exchange to a cassette (never the key).
 */
export function runModelClient(runner: RunnerOptions, run: RunOptions): ModelClient {
  if (run.replay !== undefined) {
    return createReplayClient(run.replay, { strict: true });
  }
  const base =
    runner.modelClient ??
    createAnthropicClient({
      ...(runner.callTimeoutMs === undefined ? {} : { timeoutMs: runner.callTimeoutMs }),
      ...(runner.maxRetries === undefined ? {} : { maxRetries: runner.maxRetries }),
      ...(runner.prices === undefined ? {} : { prices: runner.prices }),
    });
  return run.record === undefined ? base : createRecordingClient(base, run.record);
}
