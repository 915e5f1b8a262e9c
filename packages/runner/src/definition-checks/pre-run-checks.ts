import { formatProblem, type JsonValue, type LoadedAgent, type Problem } from "@climpt/model";
import type { RunEventStream } from "../run-events.ts";
import { AgentDefinitionError } from "../runner-error.ts";
import { checkLoadedAgent } from "./check-agent.ts";
import { checkSandbox } from "./sandbox-check.ts";

/**
 * The checks `climpt validate` makes (one function, `checkLoadedAgent`), made again for this run
 * before anything is paid for: every prompt it can send with the arguments it was given, flow
 * analysis, what it needs from its working folder, and whether the OS sandbox the agent requires
 * can start here (for Bash when climpt's own tools run the steps, `sandbox`; for validators and
 * program steps always). Any error stops the run before its first
 * model call, with every problem at once (errors first); the warnings are returned, for the run
 * to report once it has started.
 */
export async function preRunChecks(
  loaded: LoadedAgent,
  options: {
    readonly args: Readonly<Record<string, JsonValue>>;
    readonly cwd: string;
    /** Whether the steps run with climpt's toolbox (the default executor), whose Bash is sandboxed. */
    readonly sandbox?: boolean;
  },
): Promise<readonly Problem[]> {
  const { sandbox = true, ...rest } = options;
  const checks = await checkLoadedAgent(loaded, { ...rest, purpose: "run" });
  // Validators and program steps run in the sandbox whichever executor runs the steps.
  const sandboxProblems = await checkSandbox(loaded, { severity: "error", toolbox: sandbox });
  const all = [...checks.problems, ...sandboxProblems, ...checks.findings];
  const errors = all.filter((problem) => problem.severity !== "warning");
  const warnings = all.filter((problem) => problem.severity === "warning");
  if (errors.length > 0) throw new AgentDefinitionError([...errors, ...warnings]);
  return warnings;
}

/** The checks' warnings as `notice` events, so the journal and the display show them. */
export function reportWarnings(events: RunEventStream, warnings: readonly Problem[]): void {
  for (const warning of warnings) {
    events.emit({ type: "notice", level: "warning", message: formatProblem(warning) });
  }
}
