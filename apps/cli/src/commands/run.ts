import type { LoadedAgent, Problem } from "@climpt/model";
import { collectAgentArgs, parameterFlagSpecs, passedArgs } from "../args/agent-flags.ts";
import type { FlagSpec } from "../args/flag-spec.ts";
import { type ParsedFlags, parseFlags } from "../args/parse-flags.ts";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { formatCommandHelp } from "../help.ts";
import { locateAgent, problemsFromError } from "../locate-agent.ts";
import { runnerModule } from "../runner-module.ts";
import { chooseExecutor, executorConflicts, loadStepExecutor } from "../step-executor-choice.ts";
import type { Command } from "./command.ts";
import {
  booleanValue,
  positionalProblems,
  reportUsageProblems,
  resolveLocation,
  stringValue,
  wantsJson,
} from "./command-line.ts";
import { executeRun } from "./execute-run.ts";
import { resumeCommandFor } from "./resume-hint.ts";
import {
  branchesFromParameters,
  runOptionsFromFlags,
  YIELDING_FLAG_KEYS,
} from "./run-flag-options.ts";
import { RUN_FLAGS } from "./run-flags.ts";

/**
 * The agent argument before the agent is known: the first token that is certainly positional,
 * else the first one that might be an unknown flag's value (`climpt run --verbose fix-bug`).
 */
function guessAgentRef(parsed: ParsedFlags): string | undefined {
  return parsed.positionals[0] ?? [...parsed.ambiguous.values()][0];
}

export const runCommand: Command = {
  name: "run",
  summary: "Run an agent: walk its steps until the completion chain says done.",
  usage: ["climpt run <agent> [--<param> VALUE]... [--param NAME=VALUE]... [flags]"],
  flags: RUN_FLAGS,
  details: [
    "<agent> is a name under .agent/ (found as git finds .git: in <cwd>, then each folder above it up to the repository root; or under --agent-dir), or a path to an agent folder. `climpt run <agent> --help` also lists the agent's parameter flags.",
    "Model access: ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL is honoured). --replay and --mock need no key: --mock SCRIPT serves a mock script (`climpt init` writes one, .agent/<name>/mock.json) on 127.0.0.1 for the run; `climpt mock` serves one on its own.",
    "Ctrl-C stops the run cleanly (the journal is kept) and prints how to resume it (`climpt resume RUN_ID`); a second Ctrl-C exits at once. `--resume RUN_ID` here does the same, unless the agent has a parameter of that name: then --resume is that parameter.",
    "--jsonl prints every run event as one JSON line on stdout as it happens (the journal's events); --verbose shows each step's resolved prompt and the model's text on stderr.",
    "--executor claude-code runs each step as a Claude Code session (needs @climpt/claude-code; Claude Code's login also works, no key needed); --replay and --record need the default executor.",
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
    const { loadAgentDefinition, validateArgs } = await runnerModule();
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

    // Pass 2: everything, strictly, with the agent's parameters as typed flags. A parameter
    // whose flag is a run flag kept only for compatibility (`--resume`: `climpt resume` is the
    // command now) takes that flag over; the iterator agent has a `resume` parameter.
    // The same for the worktree flags: the original's agents declare a `--base-branch`
    // parameter, which then also names the worktree's base branch, as it does there.
    const taken = new Set(parameterFlags.map((flag) => flag.name));
    const runFlags = RUN_FLAGS.filter(
      (flag) => !(YIELDING_FLAG_KEYS.has(flag.key) && taken.has(flag.name)),
    );
    const specs: FlagSpec[] = [...runFlags, ...parameterFlags];
    const parsed = parseFlags(argv, specs);
    const problems: Problem[] = [...parsed.problems];
    if (!problems.some((problem) => problem.code === CLI_CODES.unknownFlag)) {
      problems.push(...positionalProblems(this, parsed.positionals, { names: ["agent"] }));
    }
    const { values } = parsed;
    const resume = runFlags.some((flag) => flag.key === "resume")
      ? stringValue(values, "resume")
      : undefined;
    const paramEntries = (values.get("param") ?? []) as readonly string[];
    const collected = collectAgentArgs(values, paramEntries, loaded.agent.parameters);
    problems.push(...collected.problems);
    // The runner's one check of a run's parameters, run here too so a bad argument is a usage
    // error (exit 2, before any model call) with the code the runner gives it. A resumed run
    // keeps the parameters it started with (giving any is the conflict below).
    const checked = resume === undefined ? validateArgs(loaded.agent, collected.args) : undefined;
    if (checked !== undefined && !checked.ok) problems.push(...checked.issues);
    const args = checked?.ok ? passedArgs(checked.value, collected.args) : collected.args;
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
    if (json && booleanValue(values, "jsonl") === true) {
      problems.push({
        code: CLI_CODES.conflict,
        severity: "error",
        message: "--json and --jsonl both print on stdout; choose one.",
        hint: "--jsonl streams the events (the last one, run_end, holds the result); --json prints only the result.",
      });
    }
    const executorName = chooseExecutor(stringValue(values, "executor"), loaded.agent.executor);
    problems.push(
      ...executorConflicts(executorName, {
        replay: stringValue(values, "replay") !== undefined,
        record: stringValue(values, "record") !== undefined,
      }),
    );
    const shared = runOptionsFromFlags(values, io, executorName);
    problems.push(...shared.problems);
    const worktreeOptions = {
      ...shared.options.worktreeOptions,
      ...branchesFromParameters(loaded.agent.parameters, args, runFlags),
    };
    if (problems.length > 0) return reportUsageProblems(io, this, problems, json);
    const stepExecutor = await loadStepExecutor(
      executorName,
      io.env,
      undefined,
      io.cwd,
      loaded.registry.steps,
    );
    if (!stepExecutor.ok) return reportUsageProblems(io, this, [stepExecutor.problem], json);

    // A session the executor started ahead for a step the run did not reach ends with the run.
    try {
      return await executeRun(io, this, {
        loaded,
        runOptions: {
          args,
          cwd: location.cwd,
          ...shared.options,
          ...(Object.keys(worktreeOptions).length === 0 ? {} : { worktreeOptions }),
          ...(resume === undefined ? {} : { resume }),
        },
        json,
        jsonl: booleanValue(values, "jsonl") === true,
        verbose: booleanValue(values, "verbose") === true,
        resumeCommand: (runId) => resumeCommandFor(agentRef, argv, runId),
        ...(resume === undefined ? {} : { resuming: resume }),
        ...(shared.mockScript === undefined ? {} : { mockScript: shared.mockScript }),
        ...(stepExecutor.executor === undefined ? {} : { stepExecutor: stepExecutor.executor }),
      });
    } finally {
      stepExecutor.executor?.close?.();
    }
  },
};
