/**
 * Every prompt a run can send, resolved the way the run resolves it, before any model call: the
 * system prompt, each step's prompt (C3L candidates, else its fallbackKey template), each check
 * prompt and each failure pattern's retry prompt. Reports missing and unsafe files and every
 * placeholder no channel fills (docs/design.md#prompts, #variables).
 */
import {
  createAgentPromptSource,
  type PromptSource,
  resolvePrompt,
  resolveSystemPrompt,
} from "@climpt/c3l-resolver";
import { type FlowGraph, reachableSteps } from "@climpt/flow";
import {
  ClimptError,
  findUvPlaceholders,
  type JsonValue,
  type LoadedAgent,
  ownRecord,
  type Problem,
  problem,
} from "@climpt/model";
import { resolveEntryStep } from "@climpt/registry-schema";
import {
  declaredVariableProblems,
  type PlaceholderContext,
  type PromptText,
  placeholderProblems,
} from "./placeholder-checks.ts";
import { checkRetryPrompts } from "./retry-prompt-checks.ts";
import { uvSupplyTable } from "./uv-supply.ts";

export interface PromptCheckOptions {
  /** The run's arguments after defaults; see `CheckAgentOptions.args`. */
  readonly args?: Readonly<Record<string, JsonValue>> | undefined;
  /** The registry's flow graph (with the budget verdict's edges when the agent has one). */
  readonly graph?: FlowGraph | undefined;
}

export interface PromptChecks {
  readonly problems: readonly Problem[];
  /**
   * Per flow step, the text of every prompt its channels fill (its own, its check's, and for a
   * closure step its retry prompts), for flow analysis to check the handoff values they read.
   */
  readonly flowPrompts: Readonly<Record<string, string>>;
}

/** A thrown PR-* ClimptError (an unsafe prompt folder) as a problem. */
function thrownProblem(error: unknown, file: string): Problem {
  if (ClimptError.isInstance(error)) {
    return {
      ...error.toProblem(),
      severity: "error",
      ...(error.file === undefined ? { file } : {}),
    };
  }
  throw error;
}

export async function checkPrompts(
  loaded: LoadedAgent,
  options: PromptCheckOptions = {},
): Promise<PromptChecks> {
  const { agent, registry } = loaded;
  const registryFile = loaded.files.registry;
  const problems: Problem[] = [];
  // Keyed by step ids an author chose: no prototype, so a step named `toString` has no prompt
  // until one is set, and `__proto__` is an entry like any other.
  const flowPrompts = ownRecord<string>();

  const system = await resolveSystemPrompt(loaded.dir, agent.systemPromptPath, {
    declaredAt: {
      file: loaded.files.agent,
      path:
        agent.shape === "flat" ? "$.behavior.systemPromptPath" : "$.runner.flow.systemPromptPath",
    },
  });
  if (!system.ok) problems.push(...system.issues);
  else {
    const names = new Set(findUvPlaceholders(system.value.text).map((found) => found.name));
    for (const name of names) {
      problems.push(
        problem(
          "PR-RESOLVE-007",
          `The system prompt ${system.value.tried[0]} uses {uv-${name}}, but the system prompt is sent as written: placeholders are not filled there.`,
          {
            severity: "warning",
            file: system.value.tried[0],
            hint: "Move the placeholder into a step prompt; the system prompt is the same for every step.",
          },
        ),
      );
    }
  }

  let source: PromptSource;
  try {
    source = createAgentPromptSource(loaded.dir, registry);
  } catch (error) {
    problems.push(thrownProblem(error, registryFile));
    return { problems, flowPrompts };
  }

  const entry = resolveEntryStep(registry, agent.verdict.type);
  const reachable = entry.ok ? reachableSteps(registry, [entry.value], options.graph) : undefined;
  const context: PlaceholderContext = {
    table: uvSupplyTable(agent, registry, { args: options.args }),
    // Without an entry (the loader reports that) every step counts as reachable.
    reachable: (stepId) => reachable === undefined || reachable.has(stepId),
    entryStepId: entry.ok ? entry.value : undefined,
  };
  const texts: PromptText[] = [];
  for (const step of Object.values(registry.steps)) {
    // A program step (runner.command) runs a program, not the model: it has no prompt.
    if (step.subprocess !== undefined) continue;
    const own = await resolvePrompt({
      registry,
      ref: step.prompt,
      source,
      fallbackKey: step.fallbackKey,
      stepId: step.id,
      registryFile,
    });
    if (!own.ok) problems.push(...own.issues);
    const check =
      step.check?.prompt === undefined
        ? undefined
        : await resolvePrompt({
            registry,
            ref: step.check.prompt,
            source,
            stepId: step.id,
            registryFile,
          });
    if (check !== undefined && !check.ok) problems.push(...check.issues);
    // Section steps are prompt fragments: no run resolves them on their own.
    if (step.kind === "section") continue;
    problems.push(...declaredVariableProblems(step, context, registryFile));
    if (own.ok) {
      const origin = own.value.source;
      texts.push({
        text: own.value.text,
        what:
          origin.kind === "file"
            ? `prompt of step "${step.id}"`
            : `built-in template "${origin.key}" (fallbackKey of step "${step.id}")`,
        file: origin.kind === "file" ? origin.path : registryFile,
        firstLine: own.value.firstLine,
        stepId: step.id,
      });
    }
    if (check?.ok) {
      texts.push({
        text: check.value.text,
        what: `check prompt of step "${step.id}"`,
        file: check.value.source.kind === "file" ? check.value.source.path : registryFile,
        firstLine: check.value.firstLine,
        stepId: step.id,
      });
    }
  }

  const retry = await checkRetryPrompts(loaded, source);
  problems.push(...retry.problems);
  texts.push(...retry.prompts);
  for (const text of texts) {
    problems.push(...placeholderProblems(text, context));
    flowPrompts[text.stepId] =
      flowPrompts[text.stepId] === undefined
        ? text.text
        : `${flowPrompts[text.stepId]}\n${text.text}`;
  }
  return { problems, flowPrompts };
}
