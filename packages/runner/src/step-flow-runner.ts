import type { LoadedAgent } from "@climpt/model";
import type { RunnerOptions, RunOptions } from "./run/run-options.ts";
import { RunSession } from "./run/run-session.ts";
import type { RunEvent } from "./run-event.ts";
import type { RunResult } from "./run-result.ts";

/**
 * The programmatic API, shaped like the original runtime's:
 *
 * ```ts
 * const definition = await loadAgentDefinition("code-improver");
 * const result = await new StepFlowRunner(definition).run({ args: { topic: "…" }, cwd });
 * ```
 *
 * `run` resolves with the run result for every run-level outcome, success or failure
 * (docs/design.md#the-run-result); it rejects only for bad input (arguments, an agent that cannot
 * run, an unreadable journal), with a coded `ClimptError`. A runner can run several times, and
 * several runs at once.
 */
export class StepFlowRunner {
  private readonly listeners = new Set<(event: RunEvent) => void>();

  constructor(
    readonly definition: LoadedAgent,
    private readonly options: RunnerOptions = {},
  ) {
    if (options.onEvent !== undefined) this.listeners.add(options.onEvent);
  }

  /** Adds an event listener; returns a function that removes it. */
  on(listener: (event: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  run(options: RunOptions = {}): Promise<RunResult> {
    return new RunSession(this.definition, this.options, options, this.listeners).execute();
  }
}
