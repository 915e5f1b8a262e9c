import { createAgentPromptSource, type PromptSource, resolvePrompt } from "@climpt/c3l-resolver";
import { analyzeFlow, type FlowFinding } from "@climpt/flow";
import { ClimptError, type LoadedAgent, type Problem, resolveRunIterationCap } from "@climpt/model";
import { inspectAgent, resolveEntryStep } from "@climpt/registry-schema";

/** Everything `climpt validate` knows about one agent folder. */
export interface AgentCheck {
  readonly dir: string;
  /** Present when the definition loaded (it may still have prompt problems). */
  readonly loaded?: LoadedAgent;
  /** Load-time problems (errors and warnings): agent.json, the registry, output schemas, prompt files. */
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
 * Loads the agent and runs every static check at once: the loader's problems (errors and
 * warnings), every step and check prompt resolved the way a run would (missing files, unsafe
 * paths, unknown fallback keys), and `analyzeFlow` over the registry with the prompt texts and
 * the agent's parameters. Flow analysis runs on the definition as far as it could be read even
 * when loading failed, so one `climpt validate` shows both kinds of problem.
 */
export async function checkAgent(dir: string): Promise<AgentCheck> {
  const inspection = await inspectAgent(dir);
  const problems: Problem[] = [...inspection.problems];
  const draft = inspection.draft;
  if (draft === undefined) return { dir, problems, findings: [] };
  const loaded = inspection.loaded;
  const prompts = loaded === undefined ? {} : await resolvePrompts(loaded, problems);

  const agent = draft.agent;
  const entry =
    agent === undefined ? undefined : resolveEntryStep(draft.registry, agent.verdict.type);
  // A cap the agent declares (limits, or its verdict's maxIterations as the original runtime
  // reads it) bounds every cycle on purpose: SR-FLOW-005 asks for exactly that bound, so it
  // would only repeat what the author already decided (docs/design.md#limits-and-budgets).
  const capped =
    agent !== undefined && resolveRunIterationCap(agent, draft.registry).source !== "default";
  const findings = analyzeFlow(draft.registry, {
    prompts,
    parameters: agent === undefined ? [] : Object.values(agent.parameters).map((p) => p.name),
    ...(entry?.ok === true ? { entries: [entry.value] } : {}),
    ...(capped ? { ignore: ["SR-FLOW-005"] } : {}),
  })
    .filter((finding) => !restatesLoader(finding, problems))
    .map((finding) => ({ ...finding, file: draft.files.registry }));
  return { dir, ...(loaded === undefined ? {} : { loaded }), problems, findings };
}

/** Flow codes that repeat a loader check (SR-TRANS-001 / -002) about the same transition. */
const LOADER_RESTATED: ReadonlySet<string> = new Set([
  "SR-TRANS-101",
  "SR-TRANS-102",
  "SR-TRANS-103",
]);

/** Whether a flow finding says again what a loader problem at the same place already says. */
function restatesLoader(finding: FlowFinding, problems: readonly Problem[]): boolean {
  if (!LOADER_RESTATED.has(finding.code) || finding.path === undefined) return false;
  const at = finding.path;
  return problems.some((problem) => problem.path === at || problem.path?.startsWith(`${at}.`));
}

/**
 * Resolves every step and check prompt the way a run would; returns the step prompts' texts and
 * adds each failure to `problems`. A subprocess step runs a program, not the model: it has no
 * prompt to resolve.
 */
async function resolvePrompts(
  loaded: LoadedAgent,
  problems: Problem[],
): Promise<Record<string, string>> {
  const prompts: Record<string, string> = {};
  let source: PromptSource;
  try {
    source = createAgentPromptSource(loaded.dir, loaded.registry);
  } catch (error) {
    problems.push({ ...problemFromError(error), file: loaded.files.registry });
    return prompts;
  }
  for (const step of Object.values(loaded.registry.steps)) {
    if (step.subprocess !== undefined) continue;
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
  return prompts;
}
