import { existsSync } from "node:fs";
import * as path from "node:path";
import type { LoadedAgent, Problem } from "@climpt/model";
import type { RunOptions, RunResult } from "@climpt/runner";
import { collectAgentArgs, parameterFlagSpecs } from "../args/agent-flags.ts";
import type { FlagSpec } from "../args/flag-spec.ts";
import { type ParsedFlags, parseFlags } from "../args/parse-flags.ts";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { formatCommandHelp } from "../help.ts";
import { locateAgent, problemsFromError } from "../locate-agent.ts";
import { shellWord } from "../progress/format.ts";
import { ProgressDisplay } from "../progress/progress-display.ts";
import { runnerModule } from "../runner-module.ts";
import { chooseExecutor, executorConflicts, loadStepExecutor } from "../step-executor-choice.ts";
import type { Command } from "./command.ts";
import {
  booleanValue,
  numberValue,
  positionalProblems,
  reportUsageProblems,
  resolveLocation,
  stringValue,
  wantsJson,
  writeJson,
} from "./command-line.ts";
import { RUN_FLAGS } from "./run-flags.ts";

/**
 * The agent argument before the agent is known: the first token that is certainly positional,
 * else the first one that might be an unknown flag's value (`climpt run --verbose fix-bug`).
 */
function guessAgentRef(parsed: ParsedFlags): string | undefined {
  return parsed.positionals[0] ?? [...parsed.ambiguous.values()][0];
}

/** The command that continues this run, as the user pointed climpt at the agent. */
function resumeCommandFor(agentRef: string, argv: readonly string[], runId: string): string {
  const words = ["climpt", "run", agentRef];
  for (const [index, token] of argv.entries()) {
    for (const flag of ["--agent-dir", "--cwd"]) {
      if (token === flag && argv[index + 1] !== undefined)
        words.push(flag, argv[index + 1] as string);
      else if (token.startsWith(`${flag}=`)) words.push(flag, token.slice(flag.length + 1));
    }
  }
  words.push("--resume", runId);
  return words.map(shellWord).join(" ");
}

export const runCommand: Command = {
  name: "run",
  summary: "Run an agent: walk its steps until the completion chain says done.",
  usage: [
    "climpt run <agent> [--<param> VALUE]... [--param NAME=VALUE]... [flags]",
    "climpt run <agent> --resume RUN_ID",
  ],
  flags: RUN_FLAGS,
  details: [
    "<agent> is a name under <cwd>/.agent/ (or --agent-dir), or a path to an agent folder. `climpt run <agent> --help` also lists the agent's parameter flags.",
    "Model access: ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL is honoured). --replay needs no key.",
    "--executor claude-code runs each step as a Claude Code session (needs @climpt/claude-code; Claude Code's login also works, no key needed); --replay and --record need the default executor.",
    "Ctrl-C stops the run cleanly (the journal is kept) and prints how to resume it; a second Ctrl-C exits at once.",
    "Exit codes: 0 completed, 1 the run failed or was interrupted, 2 bad usage or an invalid agent definition.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const json = wantsJson(argv);
    // Pass 1: the run's own flags, to find the agent; its parameter flags are not known yet.
    const first = parseFlags(argv, RUN_FLAGS, { lenient: true });
    const agentRef = guessAgentRef(first);
    if (agentRef === undefined) {
      if (first.help) {
        io.stdout.write(formatCommandHelp(this));
        return EXIT.ok;
      }
      return reportUsageProblems(
        io,
        this,
        [...first.problems, ...positionalProblems(this, [], { names: ["agent"] })],
        json,
      );
    }
    const location = resolveLocation(first.values, io);
    const dir = await locateAgent(agentRef, location, io.cwd);
    if (!dir.ok) return reportUsageProblems(io, this, dir.issues, json);
    const { loadAgentDefinition, StepFlowRunner } = await runnerModule();
    let loaded: LoadedAgent;
    try {
      loaded = await loadAgentDefinition(dir.value);
    } catch (error) {
      io.stderr.write("The agent definition does not load; `climpt validate` lists every check.\n");
      return reportUsageProblems(io, this, problemsFromError(error), json);
    }
    const parameterFlags = parameterFlagSpecs(loaded.agent.parameters);
    if (first.help) {
      io.stdout.write(formatCommandHelp(this, parameterFlags, loaded.agent.name));
      return EXIT.ok;
    }

    // Pass 2: everything, strictly, with the agent's parameters as typed flags.
    const specs: FlagSpec[] = [...RUN_FLAGS, ...parameterFlags];
    const parsed = parseFlags(argv, specs);
    const problems: Problem[] = [...parsed.problems];
    if (!problems.some((problem) => problem.code === CLI_CODES.unknownFlag)) {
      problems.push(...positionalProblems(this, parsed.positionals, { names: ["agent"] }));
    }
    const { values } = parsed;
    const resume = stringValue(values, "resume");
    const paramEntries = (values.get("param") ?? []) as readonly string[];
    const collected = collectAgentArgs(values, paramEntries, loaded.agent.parameters, {
      skipRequired: resume !== undefined,
    });
    problems.push(...collected.problems);
    if (resume !== undefined && Object.keys(collected.args).length > 0) {
      problems.push({
        code: CLI_CODES.conflict,
        severity: "error",
        message:
          "A resumed run keeps the parameters it started with; parameters cannot be given with --resume.",
        hint: `Drop ${Object.keys(collected.args)
          .map((name) => loaded.agent.parameters[name]?.cli ?? name)
          .join(", ")}, or start a new run without --resume.`,
      });
    }
    const replay = stringValue(values, "replay");
    const record = stringValue(values, "record");
    const replayPath = replay === undefined ? undefined : path.resolve(io.cwd, replay);
    if (replayPath !== undefined && !existsSync(replayPath)) {
      problems.push({
        code: CLI_CODES.badValue,
        severity: "error",
        message: `--replay: no cassette at ${replayPath}.`,
        hint: "Record one first with --record CASSETTE, or check the path.",
      });
    }
    const executorName = chooseExecutor(stringValue(values, "executor"), loaded.agent.executor);
    problems.push(
      ...executorConflicts(executorName, {
        replay: replay !== undefined,
        record: record !== undefined,
      }),
    );
    // Claude Code also signs in with the user's Claude Code login: no key needed up front.
    if (
      executorName === "messages" &&
      replay === undefined &&
      !io.env.ANTHROPIC_API_KEY &&
      !io.env.ANTHROPIC_AUTH_TOKEN
    ) {
      problems.push({
        code: CLI_CODES.noCredentials,
        severity: "error",
        message: "ANTHROPIC_API_KEY is not set, so climpt cannot reach the model.",
        hint: "export ANTHROPIC_API_KEY=… (ANTHROPIC_BASE_URL selects another endpoint), or pass --replay CASSETTE to run from a recording.",
      });
    }
    if (problems.length > 0) return reportUsageProblems(io, this, problems, json);
    const stepExecutor = await loadStepExecutor(executorName, io.env);
    if (!stepExecutor.ok) return reportUsageProblems(io, this, [stepExecutor.problem], json);

    const maxTokens = numberValue(values, "maxTokens");
    const maxCostUsd = numberValue(values, "maxCost");
    const maxWallClockMs = numberValue(values, "maxTime");
    const model = stringValue(values, "model");
    const maxIterations = numberValue(values, "maxIterations");
    const worktree = booleanValue(values, "worktree");
    const controller = new AbortController();
    const display = new ProgressDisplay({
      out: io.stderr,
      live: io.stderr.isTTY === true,
      color: !io.env.NO_COLOR,
      ...(io.stderr.columns === undefined ? {} : { columns: io.stderr.columns }),
      resumeCommand: (runId) => resumeCommandFor(agentRef, argv, runId),
    });
    const options: RunOptions = {
      args: collected.args,
      cwd: location.cwd,
      signal: controller.signal,
      onTextDelta: (delta) => display.textDelta(delta),
      ...(model === undefined ? {} : { model }),
      ...(maxIterations === undefined ? {} : { maxIterations }),
      ...(maxTokens === undefined && maxCostUsd === undefined && maxWallClockMs === undefined
        ? {}
        : {
            budgets: {
              ...(maxTokens === undefined ? {} : { maxTokens }),
              ...(maxCostUsd === undefined ? {} : { maxCostUsd }),
              ...(maxWallClockMs === undefined ? {} : { maxWallClockMs }),
            },
          }),
      ...(resume === undefined ? {} : { resume }),
      ...(worktree === undefined ? {} : { worktree }),
      ...(replayPath === undefined ? {} : { replay: replayPath }),
      ...(record === undefined ? {} : { record: path.resolve(io.cwd, record) }),
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
      const runner = new StepFlowRunner(loaded, {
        onEvent: (event) => display.handle(event),
        ...(stepExecutor.executor === undefined ? {} : { stepExecutor: stepExecutor.executor }),
      });
      display.startTicking();
      result = await runner.run(options);
    } catch (error) {
      display.close();
      // run() throws only for bad arguments (AgentDefinitionError / ClimptError): exit 2.
      return reportUsageProblems(io, this, problemsFromError(error), json);
    } finally {
      unhook?.();
      display.close();
    }
    display.finish(result);
    if (json) writeJson(io, result);
    return result.success ? EXIT.ok : EXIT.runFailed;
  },
};
