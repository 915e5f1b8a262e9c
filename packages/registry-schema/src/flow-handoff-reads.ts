import type { FlowGraph } from "./flow-graph.ts";
import { stepPath } from "./flow-graph.ts";
import type { Registry, Step } from "./model.ts";
import { jsonPath } from "./problem.ts";

/** Channel 2 and 3 names the runtime supplies itself (DESIGN §4.2.6): never handoff reads. */
const RUNTIME_UV_NAMES: ReadonlySet<string> = new Set([
  "iteration",
  "completed_iterations",
  "completion_keyword",
  "max_iterations",
  "remaining",
  "previous_summary",
  "check_count",
  "max_checks",
]);

/** `{uv-name}` in a prompt text. */
const PLACEHOLDER = /\{uv-([^{}\s]+)\}/g;

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

/** `initial.issue` → `initial_issue`, the step part of `uv-<step>_<key>`. */
export function uvStepName(stepId: string): string {
  return stepId.replaceAll(".", "_");
}

interface ChannelFourIndex {
  /** `uvStepName(id)` → steps with that name (ids differing only in `.` vs `_` collide). */
  readonly byName: ReadonlyMap<string, readonly Step[]>;
  readonly keysOf: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * Splits a channel 4 name into writer step and key. `initial_issue_summary` could be step
 * `initial` + key `issue_summary` or step `initial.issue` + key `summary`: the split whose step
 * declares the key wins, then the longest step name. Undefined when no prefix names a step
 * (a channel 1 parameter, or a runtime name).
 */
function splitChannelFour(
  name: string,
  index: ChannelFourIndex,
): { writer: string; key: string; declared: boolean } | undefined {
  if (RUNTIME_UV_NAMES.has(name)) return undefined;
  let fallback: { writer: string; key: string } | undefined;
  let best: { writer: string; key: string } | undefined;
  for (let cut = name.indexOf("_"); cut !== -1; cut = name.indexOf("_", cut + 1)) {
    const steps = index.byName.get(name.slice(0, cut));
    const key = name.slice(cut + 1);
    if (steps === undefined || key === "") continue;
    for (const step of steps) {
      if (index.keysOf.get(step.id)?.has(key)) best = { writer: step.id, key };
      else fallback = { writer: step.id, key };
    }
  }
  if (best !== undefined) return { ...best, declared: true };
  if (fallback !== undefined) return { ...fallback, declared: false };
  return undefined;
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
  const keysOf = new Map<string, Set<string>>();
  const anyKey = new Set<string>();
  for (const step of flowSteps) {
    const name = uvStepName(step.id);
    const list = byName.get(name);
    if (list === undefined) byName.set(name, [step]);
    else list.push(step);
    const keys = new Set(step.handoff.map((field) => field.key));
    keysOf.set(step.id, keys);
    for (const key of keys) anyKey.add(key);
  }
  const index: ChannelFourIndex = { byName, keysOf };
  const parameters = new Set(options.parameters ?? []);

  const reads: HandoffRead[] = [];
  const channelFour = (
    step: Step,
    source: HandoffReadSource,
    written: string,
    name: string,
    path: string,
  ): void => {
    if (parameters.has(name)) return;
    const split = splitChannelFour(name, index);
    if (split === undefined) return;
    reads.push({ reader: step.id, source, written, ...split, path });
  };

  for (const step of flowSteps) {
    step.uvVariables.forEach((entry, position) => {
      const name = entry.startsWith("uv-") ? entry.slice(3) : entry;
      channelFour(
        step,
        "uvVariables",
        entry,
        name,
        jsonPath(jsonPath(stepPath(step.id), "uvVariables"), position),
      );
    });
    const prompt = options.prompts?.[step.id];
    if (prompt !== undefined) {
      const seen = new Set<string>();
      for (const match of prompt.matchAll(PLACEHOLDER)) {
        const name = match[1] as string;
        if (seen.has(name)) continue;
        seen.add(name);
        channelFour(step, "prompt", match[0], name, jsonPath(stepPath(step.id), "prompt"));
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
        path: jsonPath(jsonPath(jsonPath(stepPath(step.id), "transitions"), intent), "condition"),
      });
    }
  }
  return reads;
}
