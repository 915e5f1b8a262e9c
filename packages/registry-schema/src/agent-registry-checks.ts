/**
 * Checks that need both files: the entry step for the agent's verdict type, every declared
 * `uvVariables` name against what can supply it (the classic mistake: `issue_number` for the
 * parameter `issue`), and the `${context.*}` references of subprocess steps. Names follow the
 * runtime's rule in @climpt/model (`uv-names.ts`).
 *
 * Severity follows what a run of this agent can meet (docs/design.md#variables): a step the
 * entry of the agent's verdict type cannot reach never resolves its prompt, so what it lacks is
 * a warning; in a reachable step it is an error.
 */
import {
  type AgentDefinition,
  type AgentParameter,
  closestMatch,
  declaredUvName,
  findContextRefs,
  handoffFieldUvNames,
  type Problem,
  type Registry,
  RUNTIME_UV_NAMES,
  reachableSteps,
  recordValues,
  type Step,
  stepPath,
  uvLookupNames,
} from "@climpt/model";
import { resolveEntryStep } from "./entry-step.ts";
import { mcpToolNameProblems } from "./mcp-tool-checks.ts";

export interface AgentRegistryFiles {
  readonly agentFile?: string;
  readonly registryFile?: string;
}

/** Which steps a run of this agent can execute, and how to say so in a message. */
interface RunReach {
  readonly reaches: (step: Step) => boolean;
  /** "the poll:state entry initial.polling", for messages. */
  readonly entryText: string;
}

function runReach(agent: AgentDefinition, registry: Registry): RunReach {
  const entry = resolveEntryStep(registry, agent.verdict.type);
  if (!entry.ok || !Object.hasOwn(registry.steps, entry.value)) {
    // Without an entry (reported on its own) nothing is known about reach: check every step.
    return { reaches: (step) => step.kind !== "section", entryText: "no entry step" };
  }
  const reach = reachableSteps(registry, [entry.value], { verdictType: agent.verdict.type });
  return {
    reaches: (step) => reach.steps.has(step.id),
    entryText: `the ${agent.verdict.declaredType} entry "${entry.value}"`,
  };
}

export function checkAgentRegistry(
  agent: AgentDefinition,
  registry: Registry,
  files: AgentRegistryFiles = {},
): Problem[] {
  const problems: Problem[] = [];
  const registryFile = files.registryFile === undefined ? {} : { file: files.registryFile };

  const hasEntryConfig =
    registry.entryStep !== undefined || Object.keys(registry.entryStepMapping).length > 0;
  if (hasEntryConfig) {
    const entry = resolveEntryStep(registry, agent.verdict.type);
    if (!entry.ok) {
      problems.push({
        code: "SR-ENTRY-001",
        severity: "error",
        message: `No entry step for the agent's verdict type "${agent.verdict.declaredType}": entryStepMapping has no entry for it and there is no entryStep.`,
        ...registryFile,
        path: "$.entryStepMapping",
        hint: `Add "${agent.verdict.type}": "<step id>" to entryStepMapping, or add "entryStep".`,
      });
    }
  }

  const reach = runReach(agent, registry);
  const parameters = Object.keys(agent.parameters);
  const supplied = new Set<string>([...parameters, ...RUNTIME_UV_NAMES]);
  // Handoff name → the step that hands it off, for a "did you mean" that says where it comes from.
  const handedOffBy = new Map<string, string>();
  for (const step of recordValues(registry.steps)) {
    for (const field of step.handoff) {
      for (const name of handoffFieldUvNames(step.id, field)) {
        supplied.add(name);
        if (!handedOffBy.has(name)) handedOffBy.set(name, step.id);
      }
    }
  }
  for (const step of recordValues(registry.steps)) {
    const reachable = reach.reaches(step);
    const unreached = reachable
      ? ""
      : ` Step "${step.id}" is ${step.kind === "section" ? "a section fragment" : "not reachable"} from ${reach.entryText}, so a run of this agent never needs it: a warning, not an error.`;
    step.uvVariables.forEach((entry, index) => {
      const name = declaredUvName(entry);
      // Built only for a problem: most entries have none, and a large registry has thousands.
      const path = (): string => stepPath(step.id, "uvVariables", index);
      const parameter = optionalWithoutDefault(agent, name);
      if (parameter !== undefined && reachable) {
        problems.push({
          code: "SR-VALID-008",
          severity: "warning",
          message: `Step "${step.id}" uses parameter "${name}", which is optional and has no default: a run without ${parameter.cli} stops when the step's prompt is resolved.`,
          ...registryFile,
          path: path(),
          hint: `Give parameter "${name}" a "default" in agent.json, or make it "required": true.`,
        });
      }
      if (uvLookupNames(name).some((candidate) => supplied.has(candidate))) return;
      if (name === "input_text" && step.usesStdin) return;
      const suggestion = suggestParameter(name, parameters);
      const closest =
        suggestion === undefined
          ? closestMatch(name, [...parameters, ...handedOffBy.keys(), ...RUNTIME_UV_NAMES])
          : undefined;
      problems.push({
        code: "SR-VALID-006",
        severity: reachable ? "error" : "warning",
        message: `Step "${step.id}" declares uvVariable "${name}", which no agent parameter, runtime variable or handoff value supplies.${unreached}`,
        ...registryFile,
        path: path(),
        hint:
          suggestion !== undefined
            ? `Use "${suggestion}": uvVariables name the agent parameter itself (the classic mistake is "issue_number" for the parameter "issue"). Or declare parameter "${name}".`
            : closest !== undefined
              ? `Did you mean "${closest}"${describeSupplier(closest, agent, handedOffBy)}? Rename it, or declare parameter "${name}" in agent.json.`
              : `Declare parameter "${name}" in agent.json, or use a runtime variable (${RUNTIME_UV_NAMES.join(", ")}) or a handoff value (<step id with . as _>_<key>).`,
      });
    });
    problems.push(...contextReferenceProblems(agent, step, registryFile));
  }
  problems.push(...mcpToolNameProblems(agent, registry, files));
  return problems;
}

function optionalWithoutDefault(agent: AgentDefinition, name: string): AgentParameter | undefined {
  const parameter = Object.hasOwn(agent.parameters, name) ? agent.parameters[name] : undefined;
  if (parameter === undefined || parameter.required || parameter.default !== undefined) {
    return undefined;
  }
  return parameter;
}

/**
 * `${context.<key>}` in a subprocess step's arguments reads the run's context: the agent's
 * arguments over the issue payload an orchestrator may pass. A key that is no parameter can only
 * come from that payload, so a plain `climpt run` stops before starting the program.
 */
function contextReferenceProblems(
  agent: AgentDefinition,
  step: Step,
  registryFile: { file?: string },
): Problem[] {
  const subprocess = step.subprocess;
  if (subprocess === undefined) return [];
  const problems: Problem[] = [];
  for (const key of subprocess.contextKeys) {
    if (Object.hasOwn(agent.parameters, key)) continue;
    const index = subprocess.args.findIndex((arg) => findContextRefs(arg).includes(key));
    const names = Object.keys(agent.parameters);
    // `${context.pr}` for the parameter prNumber: a prefix is a likely slip here.
    const suggestion =
      suggestParameter(key, names) ??
      names.find((name) => name.toLowerCase().startsWith(key.toLowerCase()));
    problems.push({
      code: "SR-VALID-010",
      severity: "warning",
      message: `Step "${step.id}" passes \${context.${key}} to ${subprocess.command}, but "${key}" is no agent parameter: only an issue payload from the orchestrator can supply it, and a run without one stops before the program starts.`,
      ...registryFile,
      path: stepPath(step.id, "runner", "args", Math.max(index, 0)),
      hint:
        suggestion === undefined
          ? `Declare parameter "${key}" in agent.json if a command line should supply it.`
          : `Did you mean \${context.${suggestion}}? Context keys are the parameters' own names.`,
    });
  }
  return problems;
}

/** Where a suggested uv name's value comes from, for the hint. */
function describeSupplier(
  name: string,
  agent: AgentDefinition,
  handedOffBy: ReadonlyMap<string, string>,
): string {
  const parameter = Object.hasOwn(agent.parameters, name) ? agent.parameters[name] : undefined;
  if (parameter !== undefined) return ` (parameter ${name}, ${parameter.cli})`;
  const writer = handedOffBy.get(name);
  return writer === undefined ? " (set by the runner)" : ` (handed off by step "${writer}")`;
}

function suggestParameter(name: string, parameters: readonly string[]): string | undefined {
  const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");
  return (
    parameters.find((parameter) => squash(parameter) === squash(name)) ??
    parameters.find(
      (parameter) => name.startsWith(`${parameter}_`) || parameter.startsWith(`${name}_`),
    )
  );
}
