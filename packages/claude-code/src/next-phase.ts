import type { JsonValue, Step } from "@climpt/model";
import { modelId } from "@climpt/sdk-adapter";
import type { PhaseSpec } from "./session-plan.ts";
import { resolveToolAccess } from "./tool-access.ts";

/** The intents a step's model is most likely to answer when nothing else is known yet. */
const LIKELY_INTENTS = ["next", "handoff", "closing"] as const;

/** The value at a dot path (`a.b[0].c` or `a.b.0.c`) of a step's output. */
function valueAt(output: JsonValue | undefined, dotPath: string): JsonValue | undefined {
  let value: JsonValue | undefined = output;
  for (const part of dotPath.replace(/\[(\d+)\]/g, ".$1").split(".")) {
    if (part === "") continue;
    if (value === null || typeof value !== "object") return undefined;
    value = Array.isArray(value) ? value[Number(part)] : value[part];
  }
  return value;
}

/** The step a gate step goes to on `intent`, when its transition names one outright. */
function targetOf(step: Step, intent: string): string | undefined {
  const transition = step.transitions[intent as keyof Step["transitions"]];
  if (transition?.kind === "target" && transition.target !== null) return transition.target;
  if (transition === undefined && (intent === "repeat" || intent === "retry")) return step.id;
  return undefined;
}

/**
 * The intent the current step's answer carries (`output` given) or, before it answered, the
 * likeliest one its transitions allow. Undefined when the step is not a gate step, or its
 * check runs another model call next (the check prompt: this executor does not guess that one).
 */
function intentOf(step: Step, output: JsonValue | undefined): string | undefined {
  const gate = step.gate;
  if (gate === undefined || step.check?.prompt !== undefined) return undefined;
  if (output === undefined) {
    return LIKELY_INTENTS.find((intent) => targetOf(step, intent) !== undefined);
  }
  const intent = valueAt(output, gate.intentField);
  return typeof intent === "string" ? intent : undefined;
}

/**
 * The phase the runner will most likely hand over after `current`, for a session started ahead:
 * the step the current step's intent leads to (read from its output, or before that the likeliest
 * intent), with the settings the runner gives every phase of a run (model unless the step names
 * its own, system prompt, working directory, limits). A guess: the step that comes is claimed
 * only with the same fingerprint (warm-sessions.ts). Undefined when there is nothing to guess
 * from: no such step, a step without a declared output schema (the runner derives one this
 * executor does not rebuild), one whose GitHub tools need the runner's toolbox for it, or one
 * that names a model while the current one does not (or the other way round).
 */
export function nextPhase(
  current: PhaseSpec,
  steps: Readonly<Record<string, Step>>,
  output?: JsonValue,
): PhaseSpec | undefined {
  const intent = intentOf(current.step, output);
  if (intent === undefined) return undefined;
  const targetId = targetOf(current.step, intent);
  const next = targetId === undefined ? undefined : steps[targetId];
  if (next === undefined || next.subprocess !== undefined || next.outputSchema === undefined) {
    return undefined;
  }
  let model: string;
  if (next.model !== undefined) model = modelId(next.model);
  else if (current.step.model === undefined) model = current.model;
  else return undefined;
  // Those tools run in the toolbox the runner builds for that step, which does not exist yet.
  if (resolveToolAccess(current.agent, next).climptTools.length > 0) return undefined;
  return {
    model,
    ...(current.system === undefined ? {} : { system: current.system }),
    outputSchema: next.outputSchema,
    cwd: current.cwd,
    agent: current.agent,
    step: next,
    ...(current.protectedPaths === undefined ? {} : { protectedPaths: current.protectedPaths }),
    ...(current.maxTurns === undefined ? {} : { maxTurns: current.maxTurns }),
    ...(current.maxTokens === undefined ? {} : { maxTokens: current.maxTokens }),
    ...(current.timeoutMs === undefined ? {} : { timeoutMs: current.timeoutMs }),
  };
}
