/**
 * The secrets of a run, scrubbed from everything it writes or sends (docs/design.md#tools-and-their-boundary):
 * the values of every secret-named variable of the environment the run's tools, validators and
 * hooks get (the API key, `GH_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `*_TOKEN`, `*_KEY`, …) and of the
 * variables the agent declares secret (agent.json `runner.boundaries.secrets`). One
 * scrubber per run, applied at each sink once: the event stream (journal, listeners, `--jsonl`,
 * telemetry), the result, the model client's error text and log lines, and the cassette. Tool and
 * validator output is scrubbed where it is produced, before the model sees it.
 */
import {
  type AgentDefinition,
  collectSecrets,
  createScrubber,
  type SecretScrubber,
} from "@climpt/model";
import type { RunnerOptions } from "./run-options.ts";

export function runScrubber(
  runner: Pick<RunnerOptions, "env">,
  agent: Pick<AgentDefinition, "secretEnvNames">,
): SecretScrubber {
  return createScrubber(
    collectSecrets({
      env: { ...process.env, ...(runner.env ?? {}) },
      secretEnvNames: agent.secretEnvNames ?? [],
    }),
  );
}
