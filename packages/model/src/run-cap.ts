import {
  type AgentDefinition,
  DEFAULT_GATE_RUN_ITERATION_CAP,
  DEFAULT_RUN_ITERATION_CAP,
  type Registry,
} from "./model.ts";

/** Where a run's iteration cap came from, most specific first. */
export type RunCapSource =
  /** `--max-iterations` (a run option). */
  | "option"
  /** agent.json `limits.maxIterations` (or `runner.limits`). */
  | "limits"
  /** `runner.verdict.config.maxIterations`: the original runtime's cap. */
  | "verdict"
  /** Nothing declared one: 100 for the check dialect, 20 for the gate dialect. */
  | "default";

export interface RunIterationCap {
  readonly cap: number;
  readonly source: RunCapSource;
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/**
 * The run cap when nothing declares one: `DEFAULT_GATE_RUN_ITERATION_CAP` (20, the original
 * runtime's) for the gate dialect, `DEFAULT_RUN_ITERATION_CAP` (100) for the check dialect. The one
 * place this default is chosen: `resolveRunIterationCap` and `createRouter` (without an
 * `iterationCap`) both take it from here, so a registry gets the same cap either way.
 */
export function defaultRunIterationCap(registry: Pick<Registry, "dialect">): number {
  return registry.dialect === "gate" ? DEFAULT_GATE_RUN_ITERATION_CAP : DEFAULT_RUN_ITERATION_CAP;
}

/**
 * The iteration cap of one run: `--max-iterations` (`override`), else `limits.maxIterations`,
 * else the verdict's `config.maxIterations` (whatever the verdict type; it is the cap the
 * original runtime applied), else the dialect's default (100 check, 20 gate). The one place
 * this order is decided: the runner's setup and `climpt validate` both call it
 * (docs/design.md#limits-and-budgets). A declared cap (any source but `default`) is what static
 * analysis counts as the bound of a cycle.
 */
export function resolveRunIterationCap(
  agent: Pick<AgentDefinition, "limits" | "verdict">,
  registry: Pick<Registry, "dialect">,
  override?: number,
): RunIterationCap {
  const fromOption = positiveInteger(override);
  if (fromOption !== undefined) return { cap: fromOption, source: "option" };
  const fromLimits = positiveInteger(agent.limits.maxIterations);
  if (fromLimits !== undefined) return { cap: fromLimits, source: "limits" };
  const fromVerdict = positiveInteger(agent.verdict.config.maxIterations);
  if (fromVerdict !== undefined) return { cap: fromVerdict, source: "verdict" };
  return { cap: defaultRunIterationCap(registry), source: "default" };
}
