/**
 * The run's side of the OS sandbox setting (agent.json `runner.boundaries.sandbox`): checked
 * before the first model call, so a machine that cannot confine the model's commands refuses the
 * run up front instead of after the model has been paid to plan Bash calls that will all be
 * refused, and an agent that turns the sandbox off says so in every run's journal
 * (docs/design.md#tools-and-their-boundary).
 */
import { type LoadedAgent, type Problem, problem } from "@climpt/model";
import { probeSandbox, resolveToolPolicy, SANDBOX_HINT } from "@climpt/tools";

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
 * RUN-SANDBOX-002 (a warning, which a run records as a `notice`) when the agent turned the
 * sandbox off; RUN-SANDBOX-001 when it is required, some step can run Bash, and the sandbox cannot
 * start on this machine (missing programs, user namespaces disabled) — an error for a run, a
 * warning for `climpt validate`, which runs nothing.
 */
export async function checkSandbox(
  loaded: LoadedAgent,
  options: { readonly severity: "error" | "warning" },
): Promise<Problem[]> {
  const mode = loaded.agent.sandbox?.mode ?? "required";
  const at = { file: loaded.files.agent, path: sandboxPath(loaded) };
  if (mode === "off") {
    return [
      problem(
        "RUN-SANDBOX-002",
        'The agent sets the OS sandbox "off": model-issued commands run unsandboxed, with the files, network and environment of this process (model credentials withheld).',
        {
          ...at,
          severity: "warning",
          hint: `Remove the "off" setting (or write "required") to run them in the sandbox.`,
        },
      ),
    ];
  }
  const steps = stepsWithBash(loaded);
  if (steps.length === 0) return [];
  const probe = await probeSandbox();
  // A probe that ran out of time on a loaded machine proves nothing: refuse only on a definite
  // answer (programs missing, namespaces refused); Bash itself still refuses if it cannot start.
  if (probe.ok || /timed out/.test(probe.reason)) return [];
  return [
    problem(
      "RUN-SANDBOX-001",
      `Step(s) ${steps.map((id) => `"${id}"`).join(", ")} can run Bash, which runs only inside the OS sandbox, and the sandbox cannot start here: ${probe.reason}`,
      { ...at, severity: options.severity, hint: SANDBOX_HINT },
    ),
  ];
}
