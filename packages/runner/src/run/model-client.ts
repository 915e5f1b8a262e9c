import type { SecretScrubber } from "@climpt/model";
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
export function runModelClient(
  runner: RunnerOptions,
  run: RunOptions,
  scrubber?: SecretScrubber,
): ModelClient {
  if (run.replay !== undefined) {
    return withoutSecrets(createReplayClient(run.replay, { strict: true }), scrubber);
  }
  const base =
    runner.modelClient ??
    createAnthropicClient({
      ...(runner.callTimeoutMs === undefined ? {} : { timeoutMs: runner.callTimeoutMs }),
      ...(runner.maxRetries === undefined ? {} : { maxRetries: runner.maxRetries }),
      ...(runner.prices === undefined ? {} : { prices: runner.prices }),
      // API error text (a body may echo what it was sent) and SDK log lines.
      ...(scrubber === undefined ? {} : { scrubber }),
    });
  const scrubbed = withoutSecrets(base, scrubber);
  return run.record === undefined
    ? scrubbed
    : createRecordingClient(scrubbed, run.record, scrubber === undefined ? {} : { scrubber });
}

/**
 * Every request with the run's secrets replaced before it is sent (the one place for the model's
 * side): a secret a reply repeated, or a handoff value carrying one, goes back to the model as its
 * label. Recording and replay see the scrubbed request, so their fingerprints agree.
 */
function withoutSecrets(client: ModelClient, scrubber: SecretScrubber | undefined): ModelClient {
  if (scrubber === undefined || scrubber.size === 0) return client;
  // The conversation and the system prompt only: the rest is the run's own settings and live
  // objects (the abort signal, callbacks), which a copy would break.
  return {
    call: (request) =>
      client.call({
        ...request,
        messages: scrubber.scrubJson(request.messages),
        ...(request.system === undefined ? {} : { system: scrubber.scrub(request.system) }),
      }),
  };
}
