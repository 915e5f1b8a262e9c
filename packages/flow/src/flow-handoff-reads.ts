import {
  declaredUvName,
  findUvPlaceholders,
  handoffFieldUvNames,
  isRuntimeUvName,
  ownEntry,
  type Registry,
  type Step,
  stepPath,
  uvLookupNames,
} from "@climpt/model";
import type { FlowGraph } from "./flow-graph.ts";

/** Where a read comes from, for the finding's message and path. */
export type HandoffReadSource = "uvVariables" | "prompt" | "condition";

/** One handoff value a step needs before (or, for a condition, after) it runs. */
export interface HandoffRead {
  readonly reader: string;
  readonly source: HandoffReadSource;
  /** As written: `initial_issue_summary`, `{uv-initial_issue_summary}`, or the condition key. */
  readonly written: string;
  /** The step expected to write it (channel 4 names only). */
  readonly writer?: string;
  readonly key: string;
  /** Whether the writer (or, for a condition, any step) declares the key in its handoff. */
  readonly declared: boolean;
  /** For a condition: whether the transition has a `default` target to fall back on. */
  readonly hasDefault?: boolean;
  readonly path: string;
}

/** `initial.issue` → `initial_issue`, the step part of a channel 4 name. */
function uvStepName(stepId: string): string {
  return stepId.replaceAll(".", "_");
}

interface ChannelFourIndex {
  /** Every name a declared handoff field is supplied under → its writer and key. */
  readonly supplied: ReadonlyMap<string, { readonly writer: string; readonly key: string }>;
  /** `uvStepName(id)` → steps with that name (ids differing only in `.` vs `_` collide). */
  readonly byName: ReadonlyMap<string, readonly Step[]>;
}

/**
 * The writer step and key a channel 4 name reads, by the runtime's naming rule (@climpt/model):
 * first the names declared handoff fields are supplied under (by key, and by dot path when that
 * differs); otherwise the longest prefix that names a step, with the rest as an undeclared key.
 * `initial_issue_summary` could be step `initial` + key `issue_summary` or step `initial.issue`
 * + key `summary`: a declared field decides. Undefined when no prefix names a step.
 */
function splitChannelFour(
  name: string,
  index: ChannelFourIndex,
): { writer: string; key: string; declared: boolean } | undefined {
  const declared = index.supplied.get(name);
  if (declared !== undefined) return { ...declared, declared: true };
  let fallback: { writer: string; key: string } | undefined;
  for (let cut = name.indexOf("_"); cut !== -1; cut = name.indexOf("_", cut + 1)) {
    const steps = index.byName.get(name.slice(0, cut));
    const key = name.slice(cut + 1);
    if (steps === undefined || key === "") continue;
    for (const step of steps) fallback = { writer: step.id, key };
  }
  return fallback === undefined ? undefined : { ...fallback, declared: false };
}

export interface CollectReadsOptions {
  /** Prompt text per step id; `{uv-<step>_<key>}` placeholders in it are reads. */
  readonly prompts?: Readonly<Record<string, string>>;
  /** Channel 1 parameter names: never handoff reads even when they look like one. */
  readonly parameters?: readonly string[];
}

/** Every handoff read of the flow steps, in declaration order. */
export function collectHandoffReads(
  registry: Registry,
  graph: FlowGraph,
  options: CollectReadsOptions = {},
): HandoffRead[] {
  const flowSteps = graph.nodes.map((node) => registry.steps[node.id] as Step);
  const byName = new Map<string, Step[]>();
  const supplied = new Map<string, { writer: string; key: string }>();
  const anyKey = new Set<string>();
  for (const step of flowSteps) {
    const name = uvStepName(step.id);
    const list = byName.get(name);
    if (list === undefined) byName.set(name, [step]);
    else list.push(step);
    for (const field of step.handoff) {
      anyKey.add(field.key);
      for (const uvName of handoffFieldUvNames(step.id, field)) {
        // On a clash (`a` + `b_c` and `a.b` + `c`) the longer step name wins, as it does when
        // splitting a name that no declared field supplies.
        const existing = supplied.get(uvName);
        if (existing === undefined || uvStepName(existing.writer).length <= name.length) {
          supplied.set(uvName, { writer: step.id, key: field.key });
        }
      }
    }
  }
  const index: ChannelFourIndex = { supplied, byName };
  const parameters = new Set(options.parameters ?? []);

  const reads: HandoffRead[] = [];
  const channelFour = (
    step: Step,
    source: HandoffReadSource,
    written: string,
    name: string,
    path: string,
  ): void => {
    // The runtime reads a name as written, then with its dots as `_`: whichever of those a
    // parameter or the runner supplies is not a handoff read.
    const candidates = uvLookupNames(name);
    if (candidates.some((candidate) => parameters.has(candidate) || isRuntimeUvName(candidate))) {
      return;
    }
    const split = splitChannelFour(candidates[candidates.length - 1] as string, index);
    if (split === undefined) return;
    reads.push({ reader: step.id, source, written, ...split, path });
  };

  for (const step of flowSteps) {
    step.uvVariables.forEach((entry, position) => {
      channelFour(
        step,
        "uvVariables",
        entry,
        declaredUvName(entry),
        stepPath(step.id, "uvVariables", position),
      );
    });
    // The step's own entry only: a step named `toString` without a prompt has none.
    const prompt = options.prompts === undefined ? undefined : ownEntry(options.prompts, step.id);
    if (prompt !== undefined) {
      const seen = new Set<string>();
      for (const placeholder of findUvPlaceholders(prompt)) {
        if (seen.has(placeholder.name)) continue;
        seen.add(placeholder.name);
        channelFour(
          step,
          "prompt",
          `{uv-${placeholder.name}}`,
          placeholder.name,
          stepPath(step.id, "prompt"),
        );
      }
    }
    for (const [intent, transition] of Object.entries(step.transitions)) {
      if (transition?.kind !== "conditional") continue;
      reads.push({
        reader: step.id,
        source: "condition",
        written: transition.condition,
        key: transition.condition,
        declared: anyKey.has(transition.condition),
        hasDefault: transition.targets.default !== undefined,
        path: stepPath(step.id, "transitions", intent, "condition"),
      });
    }
  }
  return reads;
}
