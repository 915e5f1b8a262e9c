import { createAgentPromptSource, type PromptSource, resolvePrompt } from "@climpt/c3l-resolver";
import { analyzeFlow, type FlowFinding } from "@climpt/flow";
import { ClimptError, type LoadedAgent, type Problem } from "@climpt/model";
import { loadAgent } from "@climpt/registry-schema";

/** Everything `climpt validate` knows about one agent folder. */
export interface AgentCheck {
  readonly dir: string;
  /** Present when the definition loaded (it may still have prompt problems). */
  readonly loaded?: LoadedAgent;
  /** Load-time problems: agent.json, the registry, output schemas, prompt files. */
  readonly problems: readonly Problem[];
  /** Static flow analysis (analyzeFlow), each with the registry file. */
  readonly findings: readonly FlowFinding[];
}

/** A thrown ClimptError as a Problem, so it is listed with the others. */
export function problemFromError(error: unknown): Problem {
  if (ClimptError.isInstance(error)) {
    return {
      code: error.code,
      severity: "error",
      message: error.message,
      ...(error.file === undefined ? {} : { file: error.file }),
      ...(error.path === undefined ? {} : { path: error.path }),
      ...(error.hint === undefined ? {} : { hint: error.hint }),
    };
  }
  throw error;
}

/**
 * Loads the agent and runs every static check at once: the loader's problems, every step and
 * check prompt resolved the way a run would (missing files, unsafe paths, unknown fallback
 * keys), and `analyzeFlow` over the registry with the prompt texts and the agent's parameters.
 */
export async function checkAgent(dir: string): Promise<AgentCheck> {
  const result = await loadAgent(dir);
  if (!result.ok) return { dir, problems: result.issues, findings: [] };
  const loaded = result.value;
  const problems: Problem[] = [];
  const prompts: Record<string, string> = {};

  let source: PromptSource | undefined;
  try {
    source = createAgentPromptSource(loaded.dir, loaded.registry);
  } catch (error) {
    problems.push({ ...problemFromError(error), file: loaded.files.registry });
  }
  if (source !== undefined) {
    for (const step of Object.values(loaded.registry.steps)) {
      const resolved = await resolvePrompt({
        registry: loaded.registry,
        ref: step.prompt,
        source,
        fallbackKey: step.fallbackKey,
        stepId: step.id,
        registryFile: loaded.files.registry,
      });
      if (resolved.ok) prompts[step.id] = resolved.value.text;
      else problems.push(...resolved.issues);
      if (step.check?.prompt !== undefined) {
        const check = await resolvePrompt({
          registry: loaded.registry,
          ref: step.check.prompt,
          source,
          stepId: step.id,
          registryFile: loaded.files.registry,
        });
        if (!check.ok) problems.push(...check.issues);
      }
    }
  }

  const findings = analyzeFlow(loaded.registry, {
    prompts,
    parameters: Object.values(loaded.agent.parameters).map((parameter) => parameter.name),
    // An agent that declares its run cap has bounded every cycle on purpose: SR-FLOW-005 asks
    // for exactly that bound, so it would only repeat what the author already decided.
    ...(loaded.agent.limits.maxIterations === undefined ? {} : { ignore: ["SR-FLOW-005"] }),
  }).map((finding) => ({ ...finding, file: loaded.files.registry }));
  return { dir, loaded, problems, findings };
}
