/**
 * What can fill a `{uv-*}` placeholder before a run starts: the four channels of
 * docs/design.md#variables, judged from the definition (and, for a run, its arguments) instead of
 * from values. The prompt checks ask it about every placeholder of every prompt a run can send.
 */
import {
  type AgentDefinition,
  closestMatch,
  handoffFieldUvNames,
  type JsonValue,
  type Registry,
  uvLookupNames,
  type VerdictSpec,
  type VerdictType,
} from "@climpt/model";

/** How a name is supplied. */
export type UvSupply =
  /** Every run has a value. */
  | { readonly kind: "always" }
  /** Only some runs do (an optional parameter without a default, checked without arguments). */
  | { readonly kind: "maybe"; readonly reason: string }
  /** This run has none (a parameter not given, a runtime value this verdict never sets). */
  | { readonly kind: "never"; readonly reason: string; readonly fix: string }
  /** A handoff value: flow analysis checks that a step writes it before it is read. */
  | { readonly kind: "handoff" };

export interface UvSupplyTable {
  /** How `name` (as written in a placeholder) is supplied; undefined: by nothing known. */
  supply(name: string): UvSupply | undefined;
  /**
   * Whether `name` reads a step's handoff by the channel 4 naming rule (`<step>_<key>` with a
   * step id's dots as `_`), whether or not that step declares the key. Flow analysis reports
   * such reads (SR-FLOW-006 / -007), so the prompt checks leave them to it.
   */
  readsHandoff(name: string): boolean;
  /** "Did you mean" text for a name nothing supplies, naming a flag only when it exists. */
  suggestion(name: string): string | undefined;
  /** Whether a verdict module of the agent's may supply names of its own (meta:custom). */
  readonly openEnded: boolean;
}

/** The runtime names every run supplies (docs/design.md#variables, channels 2 and 3). */
const ALWAYS_RUNTIME = [
  "iteration",
  "completed_iterations",
  "max_iterations",
  "remaining",
  "previous_summary",
];

/** Runtime names only some verdict types supply. */
const VERDICT_RUNTIME: Readonly<Record<string, VerdictType>> = {
  completion_keyword: "detect:keyword",
  check_count: "count:check",
  max_checks: "count:check",
};

/** The verdict types of a verdict and of every condition it combines. */
export function verdictTypes(spec: VerdictSpec): VerdictType[] {
  return [spec.type, ...(spec.conditions ?? []).flatMap(verdictTypes)];
}

function uvStepName(stepId: string): string {
  return stepId.replaceAll(".", "_");
}

export interface UvSupplyOptions {
  /**
   * The run's arguments after defaults (`validateArgs`): a parameter missing from them supplies
   * nothing. Without them, a required parameter or one with a default always supplies a value,
   * an optional one without a default only when it is given.
   */
  readonly args?: Readonly<Record<string, JsonValue>> | undefined;
}

export function uvSupplyTable(
  agent: AgentDefinition,
  registry: Registry,
  options: UvSupplyOptions = {},
): UvSupplyTable {
  const parameters = new Map<string, UvSupply>();
  for (const parameter of Object.values(agent.parameters)) {
    let supply: UvSupply;
    if (options.args !== undefined) {
      supply = Object.hasOwn(options.args, parameter.name)
        ? { kind: "always" }
        : {
            kind: "never",
            reason: `parameter "${parameter.name}" was not given`,
            fix: `Pass ${parameter.cli} <value>, or give the parameter a default in agent.json.`,
          };
    } else if (parameter.required || parameter.default !== undefined) {
      supply = { kind: "always" };
    } else {
      supply = {
        kind: "maybe",
        reason: `parameter "${parameter.name}" is optional and has no default, so it has a value only when ${parameter.cli} is given`,
      };
    }
    parameters.set(parameter.name, supply);
  }

  const types = new Set(verdictTypes(agent.verdict));
  const runtime = new Map<string, UvSupply>();
  for (const name of ALWAYS_RUNTIME) runtime.set(name, { kind: "always" });
  for (const [name, type] of Object.entries(VERDICT_RUNTIME)) {
    runtime.set(
      name,
      types.has(type)
        ? { kind: "always" }
        : {
            kind: "never",
            reason: `the runner sets "${name}" only for a ${type} verdict, and this agent's verdict is ${agent.verdict.declaredType}`,
            fix: `Remove the placeholder, or use a ${type} verdict.`,
          },
    );
  }

  const handoffNames = new Map<string, string>();
  const stepNames = new Set<string>();
  for (const step of Object.values(registry.steps)) {
    if (step.kind === "section") continue;
    stepNames.add(uvStepName(step.id));
    for (const field of step.handoff) {
      for (const name of handoffFieldUvNames(step.id, field)) {
        if (!handoffNames.has(name)) handoffNames.set(name, step.id);
      }
    }
  }

  const flags = new Map<string, string>();
  for (const parameter of Object.values(agent.parameters)) flags.set(parameter.name, parameter.cli);

  const supply = (name: string): UvSupply | undefined => {
    for (const candidate of uvLookupNames(name)) {
      // The runner's counters win over a parameter of the same name (see collectUvVariables).
      const found =
        runtime.get(candidate) ??
        parameters.get(candidate) ??
        (handoffNames.has(candidate) ? ({ kind: "handoff" } as const) : undefined);
      if (found !== undefined) return found;
    }
    return undefined;
  };

  const readsHandoff = (name: string): boolean => {
    const flat = uvLookupNames(name).at(-1) as string;
    for (let cut = flat.indexOf("_"); cut !== -1; cut = flat.indexOf("_", cut + 1)) {
      if (cut < flat.length - 1 && stepNames.has(flat.slice(0, cut))) return true;
    }
    return false;
  };

  const suggestion = (name: string): string | undefined => {
    const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");
    const parameterNames = [...parameters.keys()];
    // The classic mistake: `issue_number` for the parameter `issue`.
    const parameter =
      parameterNames.find((candidate) => squash(candidate) === squash(name)) ??
      parameterNames.find(
        (candidate) => name.startsWith(`${candidate}_`) || candidate.startsWith(`${name}_`),
      );
    const closest =
      parameter ??
      closestMatch(name, [
        ...parameterNames,
        ...handoffNames.keys(),
        ...[...runtime]
          .filter(([, how]) => how.kind === "always")
          .map(([runtimeName]) => runtimeName),
      ]);
    if (closest === undefined) return undefined;
    const flag = flags.get(closest);
    if (flag !== undefined) return `Did you mean {uv-${closest}}? (parameter ${closest}, ${flag})`;
    const writer = handoffNames.get(closest);
    if (writer !== undefined) {
      return `Did you mean {uv-${closest}}? (handed off by step "${writer}")`;
    }
    return `Did you mean {uv-${closest}}? (set by the runner)`;
  };

  return {
    supply,
    readsHandoff,
    suggestion,
    openEnded: types.has("meta:custom"),
  };
}
