/**
 * Checks that need both files: the entry step for the agent's verdict type, and every declared
 * `uvVariables` name against what can supply it (seed 003's "issue_number vs issue" mistake).
 */
import { resolveEntryStep } from "./entry-step.ts";
import type { AgentDefinition, Registry } from "./model.ts";
import { jsonPath, type Problem } from "./problem.ts";

/** Channel 2 and 3 variables the runner supplies on every step (DESIGN §4.2.6). */
export const RUNTIME_UV_VARIABLES = [
  "iteration",
  "completed_iterations",
  "completion_keyword",
  "max_iterations",
  "remaining",
  "previous_summary",
  "check_count",
  "max_checks",
] as const;

/** The variable a step's handoff value is read under: `initial.issue` + `plan` → `initial_issue_plan`. */
export function handoffVariableName(stepId: string, key: string): string {
  return `${stepId.replace(/\./g, "_")}_${key}`;
}

export interface AgentRegistryFiles {
  readonly agentFile?: string;
  readonly registryFile?: string;
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

  const parameters = Object.keys(agent.parameters);
  const supplied = new Set<string>([...parameters, ...RUNTIME_UV_VARIABLES]);
  for (const step of Object.values(registry.steps)) {
    for (const field of step.handoff) supplied.add(handoffVariableName(step.id, field.key));
  }
  for (const step of Object.values(registry.steps)) {
    step.uvVariables.forEach((name, index) => {
      if (supplied.has(name)) return;
      if (name === "input_text" && step.usesStdin) return;
      const suggestion = suggestParameter(name, parameters);
      problems.push({
        code: "SR-VALID-006",
        severity: "error",
        message: `Step "${step.id}" declares uvVariable "${name}", which no agent parameter, runtime variable or handoff value supplies.`,
        ...registryFile,
        path: jsonPath(`${jsonPath("$.steps", step.id)}.uvVariables`, index),
        hint:
          suggestion === undefined
            ? `Declare parameter "${name}" in agent.json, or use a runtime variable (${RUNTIME_UV_VARIABLES.join(", ")}) or a handoff value (<step id with . as _>_<key>).`
            : `Use "${suggestion}": uvVariables name the agent parameter itself (the classic mistake is "issue_number" for the parameter "issue"). Or declare parameter "${name}".`,
      });
    });
  }
  return problems;
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
