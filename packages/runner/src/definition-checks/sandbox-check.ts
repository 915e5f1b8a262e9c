/**
 * The run's side of the OS sandbox setting (agent.json `runner.boundaries.sandbox`): checked
 * before the first model call, so a machine that cannot confine the model's commands — Bash, and
 * the validators, program steps and command boundary hook that run what the model wrote —
 * refuses the run up front
 * instead of after the model has been paid for work nothing can check, and an agent that turns
 * the sandbox off says so in every run's journal (docs/design.md#tools-and-their-boundary).
 */
import { type LoadedAgent, type Problem, problem } from "@climpt/model";
import { findValidationStep } from "@climpt/router";
import { probeSandbox, resolveToolPolicy, SANDBOX_HINT } from "@climpt/tools";
import { RUNNER_CODES } from "../codes.ts";

/** Where the setting is written, for the problem's JSON path. */
function sandboxPath(loaded: LoadedAgent): string {
  return loaded.agent.shape === "flat" ? "$.behavior.sandbox" : "$.runner.boundaries.sandbox";
}

/** The steps whose tools include Bash: the only ones that start the sandbox. */
export function stepsWithBash(loaded: LoadedAgent): string[] {
  return Object.values(loaded.registry.steps)
    .filter((step) => resolveToolPolicy(loaded.agent, step).tools.includes("Bash"))
    .map((step) => step.id);
}

/**
 * The validators a closure step's validation runs (`validationSteps`, as the completion chain
 * finds them for the agent's verdict type), in declared order, each once.
 */
export function validatorsInUse(loaded: LoadedAgent): string[] {
  const { registry, agent } = loaded;
  const used = new Set<string>();
  for (const step of Object.values(registry.steps)) {
    if (step.kind !== "closure") continue;
    const entry = findValidationStep(registry, step.id, agent.verdict.type)?.entry;
    for (const condition of entry?.conditions ?? []) {
      if (registry.validators[condition.validator] !== undefined) used.add(condition.validator);
    }
  }
  return [...used];
}

/** The steps that run a program (`runner.command`) instead of the model. */
export function programSteps(loaded: LoadedAgent): string[] {
  return Object.values(loaded.registry.steps)
    .filter((step) => step.subprocess !== undefined)
    .map((step) => step.id);
}

/**
 * What needs the sandbox, as the start of RUN-SANDBOX-001: `Step(s) "a" can run Bash, which runs
 * only inside the OS sandbox`, or `…; validator(s) "tests", program step(s) "merge" and the
 * boundary hook run commands, which run only inside the OS sandbox`.
 */
function whatNeedsIt(
  bash: string[],
  validators: string[],
  programs: string[],
  hook: boolean,
  mcp: string[] = [],
): string {
  const quoted = (ids: string[]): string => ids.map((id) => `"${id}"`).join(", ");
  const parts: string[] = [];
  if (bash.length > 0) parts.push(`step(s) ${quoted(bash)} can run Bash`);
  const commands: string[] = [];
  if (validators.length > 0) commands.push(`validator(s) ${quoted(validators)}`);
  if (programs.length > 0) commands.push(`program step(s) ${quoted(programs)}`);
  if (mcp.length > 0) commands.push(`MCP server(s) ${quoted(mcp)}`);
  if (hook) commands.push("the boundary hook");
  // Only the hook: one command ("runs a command, which runs"); otherwise commands ("run").
  const single = commands.length === 0 || (commands.length === 1 && hook);
  if (commands.length > 0) {
    const last = commands.pop() as string;
    const list = commands.length === 0 ? last : `${commands.join(", ")} and ${last}`;
    parts.push(`${list} ${single ? "runs a command" : "run commands"}`);
  }
  const text = parts.join("; ");
  const verb = single ? "runs" : "run";
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}, which ${verb} only inside the OS sandbox`;
}

/**
 * RUN-SANDBOX-002 (a warning, which a run records as a `notice`) when the agent turned the
 * sandbox off; RUN-SANDBOX-001 when it is required, something would run in it — a step that can
 * run Bash (when climpt's toolbox runs the steps, `toolbox`), a validator a closure step runs, a
 * program step, the command boundary hook, a stdio MCP server — and the sandbox cannot start on this machine (missing programs, user namespaces
 * disabled): an error for a run, a warning for `climpt validate`, which runs nothing.
 */
export async function checkSandbox(
  loaded: LoadedAgent,
  options: { readonly severity: "error" | "warning"; readonly toolbox?: boolean },
): Promise<Problem[]> {
  const mode = loaded.agent.sandbox?.mode ?? "required";
  const at = { file: loaded.files.agent, path: sandboxPath(loaded) };
  if (mode === "off") {
    return [
      problem(
        RUNNER_CODES.sandboxOff,
        'The agent sets the OS sandbox "off": model-issued commands, validators, program steps and the command boundary hook run unsandboxed, with the files, network and environment of this process (model credentials withheld).',
        {
          ...at,
          severity: "warning",
          hint: `Remove the "off" setting (or write "required") to run them in the sandbox.`,
        },
      ),
    ];
  }
  const bash = options.toolbox === false ? [] : stepsWithBash(loaded);
  const validators = validatorsInUse(loaded);
  const programs = programSteps(loaded);
  const hook = loaded.agent.boundaryHook !== undefined;
  // The agent's stdio MCP servers start inside the sandbox too (@climpt/tools mcp-stdio-launch).
  const mcp = Object.entries(loaded.agent.mcpServers ?? {})
    .filter(([, server]) => server.transport === "stdio")
    .map(([name]) => name);
  if (bash.length + validators.length + programs.length + mcp.length === 0 && !hook) return [];
  const probe = await probeSandbox();
  // A probe that ran out of time on a loaded machine proves nothing: refuse only on a definite
  // answer (programs missing, namespaces refused); Bash itself still refuses if it cannot start.
  if (probe.ok || /timed out/.test(probe.reason)) return [];
  return [
    problem(
      RUNNER_CODES.sandboxRequired,
      `${whatNeedsIt(bash, validators, programs, hook, mcp)}, and the sandbox cannot start here: ${probe.reason}`,
      { ...at, severity: options.severity, hint: SANDBOX_HINT },
    ),
  ];
}
