/**
 * Checks that need both files: the entry step for the agent's verdict type, and every declared
 * `uvVariables` name against what can supply it (the classic mistake: `issue_number` for the
 * parameter `issue`). Names follow the runtime's rule in @climpt/model (`uv-names.ts`).
 */
import {
  type AgentDefinition,
  declaredUvName,
  handoffFieldUvNames,
  type Problem,
  type Registry,
  RUNTIME_UV_NAMES,
  stepPath,
  uvLookupNames,
} from "@climpt/model";
import { resolveEntryStep } from "./entry-step.ts";

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
  const supplied = new Set<string>([...parameters, ...RUNTIME_UV_NAMES]);
  for (const step of Object.values(registry.steps)) {
    for (const field of step.handoff) {
      for (const name of handoffFieldUvNames(step.id, field)) supplied.add(name);
    }
  }
  for (const step of Object.values(registry.steps)) {
    step.uvVariables.forEach((entry, index) => {
      const name = declaredUvName(entry);
      if (uvLookupNames(name).some((candidate) => supplied.has(candidate))) return;
      if (name === "input_text" && step.usesStdin) return;
      const suggestion = suggestParameter(name, parameters);
      problems.push({
        code: "SR-VALID-006",
        severity: "error",
        message: `Step "${step.id}" declares uvVariable "${name}", which no agent parameter, runtime variable or handoff value supplies.`,
        ...registryFile,
        path: stepPath(step.id, "uvVariables", index),
        hint:
          suggestion === undefined
            ? `Declare parameter "${name}" in agent.json, or use a runtime variable (${RUNTIME_UV_NAMES.join(", ")}) or a handoff value (<step id with . as _>_<key>).`
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
