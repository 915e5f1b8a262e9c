/**
 * The secrets of a run, scrubbed from everything it writes or sends (docs/design.md#tools-and-their-boundary):
 * the values of every secret-named variable of the environment the run's tools, validators and
 * hooks get (the API key, `GH_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `*_TOKEN`, `*_KEY`, …) and of the
 * variables the agent declares secret (agent.json `runner.boundaries.secrets`), and of those a
 * validator or a program step declares it needs (`env` in steps_registry.json) and of those the
 * command boundary hook declares (`boundaryHook.env` in agent.json): they are passed into its
 * sandbox, so they are secrets whatever their name. One
 * scrubber per run, applied at each sink once: the event stream (journal, listeners, `--jsonl`,
 * telemetry), the result, the model client's error text and log lines, and the cassette. Tool and
 * validator output is scrubbed where it is produced, before the model sees it.
 */
import {
  type AgentDefinition,
  collectSecrets,
  createScrubber,
  type Registry,
  type SecretScrubber,
} from "@climpt/model";
import type { RunnerOptions } from "./run-options.ts";

export function runScrubber(
  runner: Pick<RunnerOptions, "env">,
  agent: Pick<AgentDefinition, "secretEnvNames" | "boundaryHook">,
  registry?: Pick<Registry, "validators" | "steps">,
): SecretScrubber {
  return createScrubber(
    collectSecrets({
      env: { ...process.env, ...(runner.env ?? {}) },
      secretEnvNames: [
        ...(agent.secretEnvNames ?? []),
        ...(registry === undefined ? [] : commandEnvNames(registry)),
        ...(agent.boundaryHook?.env ?? []),
      ],
    }),
  );
}

/** Every name a validator or a program step declares in its `env`, each once. */
export function commandEnvNames(registry: Pick<Registry, "validators" | "steps">): string[] {
  const names = new Set<string>();
  for (const validator of Object.values(registry.validators)) {
    for (const name of validator.env ?? []) names.add(name);
  }
  for (const step of Object.values(registry.steps)) {
    for (const name of step.subprocess?.env ?? []) names.add(name);
  }
  return [...names];
}
