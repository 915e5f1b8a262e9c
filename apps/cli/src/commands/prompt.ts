import { createAgentPromptSource, resolveStepPrompt } from "@climpt/c3l-resolver";
import {
  closestMatch,
  handoffFieldUvNames,
  type JsonValue,
  type LoadedAgent,
  type Problem,
} from "@climpt/model";
import { collectAgentArgs, parameterFlagSpecs } from "../args/agent-flags.ts";
import type { FlagSpec } from "../args/flag-spec.ts";
import { parseFlags } from "../args/parse-flags.ts";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { formatCommandHelp } from "../help.ts";
import { locateAgent, problemsFromError } from "../locate-agent.ts";
import { runnerModule } from "../runner-module.ts";
import type { Command } from "./command.ts";
import {
  booleanValue,
  numberValue,
  positionalProblems,
  reportUsageProblems,
  resolveLocation,
  wantsJson,
  writeJson,
} from "./command-line.ts";
import { AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG, JSON_FLAG } from "./common-flags.ts";

const PROMPT_FLAGS: readonly FlagSpec[] = [
  AGENT_DIR_FLAG,
  CWD_FLAG,
  {
    name: "param",
    kind: "string",
    key: "param",
    repeatable: true,
    valueName: "NAME=VALUE",
    description: "Set an agent parameter by name (repeatable); the same as its own flag.",
  },
  {
    name: "iteration",
    kind: "integer",
    key: "iteration",
    valueName: "N",
    min: 1,
    description: "The iteration the prompt is resolved for (default 1).",
  },
  {
    name: "check",
    kind: "boolean",
    key: "check",
    description: "The step's check prompt (check dialect) instead of its own.",
  },
  JSON_FLAG,
  HELP_FLAG,
];

/**
 * What stands in for values only a run has: a handoff value an earlier step writes, and the
 * verdict's and the summary's runtime values. Marked so nobody mistakes them for real text.
 */
function previewVariables(loaded: LoadedAgent, iteration: number): Record<string, JsonValue> {
  const cap = loaded.agent.limits.maxIterations ?? 100;
  const values: Record<string, JsonValue> = {
    iteration,
    completed_iterations: iteration - 1,
    max_iterations: cap,
    remaining: Math.max(0, cap - iteration),
    previous_summary: "‹the previous step's summary›",
    completion_keyword: "‹completion keyword›",
    check_count: "‹check count›",
    max_checks: "‹max checks›",
  };
  for (const step of Object.values(loaded.registry.steps)) {
    for (const field of step.handoff) {
      for (const name of handoffFieldUvNames(step.id, field)) {
        values[name] ??= `‹${field.key} handed off by ${step.id}›`;
      }
    }
  }
  return values;
}

export const promptCommand: Command = {
  name: "prompt",
  summary: "Print a step's resolved prompt, without calling the model.",
  usage: ["climpt prompt <agent> <step> [--<param> VALUE]... [--param NAME=VALUE]... [flags]"],
  flags: PROMPT_FLAGS,
  details: [
    "The prompt is resolved as a run resolves it (C3L file or the step's built-in template, every {uv-…} placeholder filled). Values only a run has are shown as ‹…›: handoff values of earlier steps, the previous summary, the verdict's counters.",
    'The text goes to stdout; where it came from, to stderr. --json prints {"stepId", "source", "text", "variables"}.',
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const json = wantsJson(argv);
    const first = parseFlags(argv, PROMPT_FLAGS, { lenient: true });
    const [agentRef, stepId] = first.positionals;
    if (agentRef === undefined || stepId === undefined) {
      if (first.help) {
        io.stdout.write(formatCommandHelp(this));
        return EXIT.ok;
      }
      return reportUsageProblems(
        io,
        this,
        [
          ...first.problems,
          ...positionalProblems(this, first.positionals, { names: ["agent", "step"] }),
        ],
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
      return reportUsageProblems(io, this, problemsFromError(error), json);
    }
    const parameterFlags = parameterFlagSpecs(loaded.agent.parameters);
    if (first.help) {
      io.stdout.write(formatCommandHelp(this, parameterFlags, loaded.agent.name));
      return EXIT.ok;
    }
    const parsed = parseFlags(argv, [...PROMPT_FLAGS, ...parameterFlags]);
    const problems: Problem[] = [...parsed.problems];
    if (!problems.some((problem) => problem.code === CLI_CODES.unknownFlag)) {
      problems.push(...positionalProblems(this, parsed.positionals, { names: ["agent", "step"] }));
    }
    const { values } = parsed;
    const paramEntries = (values.get("param") ?? []) as readonly string[];
    const collected = collectAgentArgs(values, paramEntries, loaded.agent.parameters);
    problems.push(...collected.problems);
    const step = loaded.registry.steps[stepId];
    if (step === undefined) {
      const closest = closestMatch(stepId, Object.keys(loaded.registry.steps));
      problems.push({
        code: CLI_CODES.badArgument,
        severity: "error",
        message: `Agent "${loaded.agent.name}" has no step "${stepId}".`,
        hint: `${closest === undefined ? "" : `Did you mean ${closest}? `}Steps: ${Object.keys(loaded.registry.steps).join(", ")}.`,
      });
    }
    const check = booleanValue(values, "check") === true;
    if (step !== undefined && check && step.check?.prompt === undefined) {
      problems.push({
        code: CLI_CODES.badArgument,
        severity: "error",
        message: `Step "${stepId}" has no check prompt.`,
        hint: "Leave --check out for the step's own prompt.",
      });
    }
    // The runner's one check of a run's parameters: the same codes as `climpt run`.
    const args = validateArgs(loaded.agent, collected.args);
    if (!args.ok) problems.push(...args.issues);
    if (problems.length > 0 || step === undefined || !args.ok) {
      return reportUsageProblems(io, this, problems, json);
    }

    const resolved = await resolveStepPrompt({
      registry: loaded.registry,
      step,
      source: createAgentPromptSource(loaded.dir, loaded.registry),
      channels: {
        parameters: args.value,
        runtime: previewVariables(loaded, numberValue(values, "iteration") ?? 1),
      },
      ...(check && step.check?.prompt !== undefined ? { prompt: step.check.prompt } : {}),
      ...(step.usesStdin ? { stdin: "‹stdin›" } : {}),
      registryFile: loaded.files.registry,
      parameterFlags: Object.fromEntries(
        Object.values(loaded.agent.parameters).map((parameter) => [parameter.name, parameter.cli]),
      ),
    });
    if (!resolved.ok) return reportUsageProblems(io, this, resolved.issues, json);
    const prompt = resolved.value;
    const source =
      prompt.source.kind === "file"
        ? prompt.source.path
        : `built-in template "${prompt.source.key}" (the step's fallbackKey)`;
    if (json) {
      writeJson(io, {
        stepId: prompt.stepId,
        source,
        text: prompt.text,
        variables: Object.fromEntries(
          Object.entries(prompt.variables).map(([name, used]) => [name, used.value]),
        ),
      });
      return EXIT.ok;
    }
    io.stderr.write(`${prompt.stepId}: ${source}\n`);
    io.stdout.write(prompt.text.endsWith("\n") ? prompt.text : `${prompt.text}\n`);
    return EXIT.ok;
  },
};
