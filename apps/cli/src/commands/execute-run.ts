import type { LoadedAgent } from "@climpt/model";
import type {
  JournalStoreFactory,
  RunEvent,
  RunOptions,
  RunResult,
  StepExecutor,
} from "@climpt/runner";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { problemsFromError } from "../locate-agent.ts";
import { ProgressDisplay } from "../progress/progress-display.ts";
import { runnerModule } from "../runner-module.ts";
import type { Command } from "./command.ts";
import { reportUsageProblems, writeJson } from "./command-line.ts";
import { startMockForRun } from "./mock-for-run.ts";

export interface ExecuteRunOptions {
  readonly loaded: LoadedAgent;
  /** The run's options; the stop signal and the text stream are added here. */
  readonly runOptions: Omit<RunOptions, "signal" | "onTextDelta">;
  /** `--json`: the result as one JSON object on stdout. */
  readonly json: boolean;
  /** `--jsonl`: every event as one JSON line on stdout, as it happens. */
  readonly jsonl: boolean;
  /** `--verbose`: each step's resolved prompt and the model's text. */
  readonly verbose: boolean;
  /** The command that continues a run, as the user pointed climpt at the agent. */
  readonly resumeCommand: (runId: string) => string;
  /** The run id being resumed, so a run that had completed says nothing ran. */
  readonly resuming?: string;
  /** Another step executor (`--executor claude-code`); absent: the runner's own. */
  readonly stepExecutor?: StepExecutor;
  /** `--mock`: the mock script (absolute) that answers this run's model calls. */
  readonly mockScript?: string;
  /** Where journals are read and written instead of the files alone (a fork of a fleet's run). */
  readonly journalStore?: JournalStoreFactory;
}

/**
 * Runs (or resumes) an agent with the progress display on stderr, Ctrl-C handling (the first
 * stops the run cleanly, the second exits at once) and the exit code of `climpt run`.
 */
export async function executeRun(
  io: CliIo,
  command: Command,
  options: ExecuteRunOptions,
): Promise<number> {
  const { StepFlowRunner } = await runnerModule();
  const mocked =
    options.mockScript === undefined
      ? undefined
      : await startMockForRun(options.mockScript, io, options.loaded);
  if (mocked !== undefined && !mocked.ok) {
    return reportUsageProblems(io, command, mocked.problems, options.json);
  }
  const controller = new AbortController();
  const display = new ProgressDisplay({
    out: io.stderr,
    live: io.stderr.isTTY === true,
    color: !io.env.NO_COLOR,
    verbose: options.verbose,
    ...(options.resuming === undefined ? {} : { resuming: options.resuming }),
    ...(io.stderr.columns === undefined ? {} : { columns: io.stderr.columns }),
    resumeCommand: options.resumeCommand,
  });
  const onEvent = (event: RunEvent): void => {
    if (options.jsonl) io.stdout.write(`${JSON.stringify(event)}\n`);
    display.handle(event);
  };

  let stops = 0;
  const unhook = io.onStopSignal?.((signal) => {
    stops++;
    if (stops === 1) {
      display.line(
        `${signal === "SIGINT" ? "Ctrl-C" : signal}: stopping the run; the journal is kept. Press Ctrl-C again to exit at once.`,
      );
      controller.abort();
      return;
    }
    display.close();
    io.stderr.write("Exiting at once; the journal may miss the current step.\n");
    io.exitNow?.(EXIT.interrupted);
  });
  let result: RunResult;
  try {
    const runner = new StepFlowRunner(options.loaded, {
      onEvent,
      resumeCommand: options.resumeCommand,
      ...(options.stepExecutor === undefined ? {} : { stepExecutor: options.stepExecutor }),
      ...(mocked === undefined ? {} : { modelClient: mocked.client }),
      ...(options.journalStore === undefined ? {} : { journalStore: options.journalStore }),
    });
    display.startTicking();
    result = await runner.run({
      ...options.runOptions,
      signal: controller.signal,
      onTextDelta: (delta) => display.textDelta(delta),
    });
  } catch (error) {
    display.close();
    // run() throws only for bad input (AgentDefinitionError / ClimptError): exit 2.
    return reportUsageProblems(io, command, problemsFromError(error), options.json);
  } finally {
    unhook?.();
    display.close();
    await mocked?.mock.close();
  }
  display.finish(result);
  if (options.json) writeJson(io, result);
  return result.success ? EXIT.ok : EXIT.runFailed;
}
