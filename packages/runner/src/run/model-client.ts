import type { SecretScrubber } from "@climpt/model";
import {
  CassetteError,
  createAnthropicClient,
  createRecordingClient,
  createReplayClient,
  type ModelClient,
  SDK_ADAPTER_CODES,
} from "@climpt/sdk-adapter";
import type { RunnerOptions, RunOptions } from "./run-options.ts";

/**
 * The client a run talks to: the one given, else Anthropic through the official SDK
 * (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL). `--replay` serves a cassette strictly and never
 * reaches the network; `--record` writes every exchange to a cassette (never the key). Both:
 * what the replayed cassette holds is served from it, every other request goes to the model, and
 * all of them are recorded (`climpt eval --live` re-records a cassette from its first changed
 * request on); the two paths must differ.
 */
export function runModelClient(
  runner: RunnerOptions,
  run: RunOptions,
  scrubber?: SecretScrubber,
): ModelClient {
  if (run.replay !== undefined && run.record === undefined) {
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
  const live = withoutSecrets(base, scrubber);
  const scrubbed =
    run.replay === undefined ? live : withoutSecrets(replayThenLive(run.replay, live), scrubber);
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

/**
 * Serves `cassette` strictly until a request misses it, then sends that request and every later
 * one to `live`: once a request changed, the replies after it are the model's, not the
 * recording's, even where a later request happens to equal a recorded one.
 */
function replayThenLive(cassette: string, live: ModelClient): ModelClient {
  const replay = createReplayClient(cassette, { strict: true });
  let missed = false;
  return {
    async call(request) {
      if (!missed) {
        try {
          return await replay.call(request);
        } catch (error) {
          if (!CassetteError.isInstance(error) || error.code !== SDK_ADAPTER_CODES.replayMiss) {
            throw error;
          }
          missed = true;
        }
      }
      return live.call(request);
    },
  };
}
