import { handoffUvName, type JsonValue, ownEntry } from "@climpt/model";
import { HandoffVariables } from "./handoff-variables.ts";

/**
 * Values the runner sets. The eight names above are typed; a runner may add more. `undefined`
 * means "not available" (e.g. no previous summary yet) and supplies nothing.
 */
export interface RuntimeUv {
  readonly iteration?: number | undefined;
  readonly completed_iterations?: number | undefined;
  readonly completion_keyword?: string | undefined;
  readonly max_iterations?: number | undefined;
  readonly remaining?: number | undefined;
  readonly previous_summary?: string | undefined;
  readonly check_count?: number | undefined;
  readonly max_checks?: number | undefined;
  readonly [name: string]: JsonValue | undefined;
}

/** The four channels a prompt's `{uv-*}` placeholders are filled from. */
export interface UvChannels {
  /** Channel 1: the agent's parameters as given on the command line (`--issue 123` → `issue`). */
  readonly parameters?: Readonly<Record<string, JsonValue | undefined>> | undefined;
  /** Channels 2 and 3: what the runner knows about the run. */
  readonly runtime?: RuntimeUv | undefined;
  /**
   * Channel 4: step id → handoff key → value, as carried forward by the gate; or a
   * `HandoffVariables` a runner keeps up to date step by step (lookups by name, no rebuild).
   */
  readonly handoff?:
    | Readonly<Record<string, Readonly<Record<string, JsonValue | undefined>>>>
    | HandoffVariables
    | undefined;
  /**
   * Step id → handoff key → the full dot path the value was read from, for gate
   * `handoffFields` such as `analysis.understanding` (key `understanding`). When the path
   * differs from the key the value is also named after the path.
   */
  readonly handoffPaths?: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined;
}

/** A flat `name → value` map; a prompt's `{uv-name}` reads `name`. */
export type UvVariables = Readonly<Record<string, JsonValue>>;

export type UvOrigin =
  | { readonly channel: "parameters"; readonly name: string }
  | { readonly channel: "runtime"; readonly name: string }
  | {
      readonly channel: "handoff";
      readonly stepId: string;
      readonly key: string;
      /** `key`: named `<step>_<key>`; `path`: named after the full dot path. */
      readonly via: "key" | "path";
    };

/** Two channels supplying one name: `kept` won, `dropped` was ignored. */
export interface UvShadowing {
  readonly name: string;
  readonly kept: UvOrigin;
  readonly dropped: UvOrigin;
}

export interface UvVariableTable {
  readonly variables: UvVariables;
  readonly origins: Readonly<Record<string, UvOrigin>>;
  /** Every name clash, so a runner can warn about it; empty in a well-named agent. */
  readonly shadowed: readonly UvShadowing[];
}

/**
 * Flattens the channels into one name → value map, recording where each value came from.
 *
 * On a name clash the first of these wins: runtime (channels 2–3) > parameters (channel 1) >
 * handoff named by key > handoff named by path; within the handoff, the step that appears first.
 * Why: the runner's counters are facts about the run that a parameter must not falsify, and
 * values the user typed must not be shadowed by model output carried in the handoff.
 *
 * `only`: collect just these names (a prompt's placeholders), each looked up rather than the
 * whole handoff walked, so the cost is that of the prompt, not of the run so far. Clashes are
 * then reported for these names only.
 */
export function collectUvVariables(channels: UvChannels, only?: Iterable<string>): UvVariableTable {
  const handoff = channels.handoff;
  if (only === undefined && !(handoff instanceof HandoffVariables)) {
    return collectAll(channels, handoff ?? {});
  }
  const index =
    handoff instanceof HandoffVariables
      ? handoff
      : HandoffVariables.from(handoff ?? {}, undefined, channels.handoffPaths);
  const runtime = channels.runtime ?? {};
  const parameters = channels.parameters ?? {};
  const names =
    only ?? new Set([...Object.keys(runtime), ...Object.keys(parameters), ...index.names()]);
  const variables: Record<string, JsonValue> = Object.create(null);
  const origins: Record<string, UvOrigin> = Object.create(null);
  const shadowed: UvShadowing[] = [];
  for (const name of names) {
    if (Object.hasOwn(origins, name)) continue;
    const offers: { value: JsonValue; origin: UvOrigin }[] = [];
    const fromRuntime = Object.hasOwn(runtime, name) ? runtime[name] : undefined;
    if (fromRuntime !== undefined) {
      offers.push({ value: fromRuntime, origin: { channel: "runtime", name } });
    }
    const fromParameters = Object.hasOwn(parameters, name) ? parameters[name] : undefined;
    if (fromParameters !== undefined) {
      offers.push({ value: fromParameters, origin: { channel: "parameters", name } });
    }
    const fromHandoff = index.lookup(name);
    if (fromHandoff !== undefined) {
      for (const supplier of [fromHandoff, ...fromHandoff.shadowed]) {
        offers.push({
          value: fromHandoff.value,
          origin: {
            channel: "handoff",
            stepId: supplier.stepId,
            key: supplier.key,
            via: supplier.via,
          },
        });
      }
    }
    const [kept, ...dropped] = offers;
    if (kept === undefined) continue;
    variables[name] = kept.value;
    origins[name] = kept.origin;
    for (const loser of dropped) shadowed.push({ name, kept: kept.origin, dropped: loser.origin });
  }
  return { variables, origins, shadowed };
}

/** Every name of every channel, walking the plain handoff record (the original algorithm). */
function collectAll(
  channels: UvChannels,
  handoffRecord: Readonly<Record<string, Readonly<Record<string, JsonValue | undefined>>>>,
): UvVariableTable {
  const variables: Record<string, JsonValue> = Object.create(null);
  const origins: Record<string, UvOrigin> = Object.create(null);
  const shadowed: UvShadowing[] = [];
  const offer = (name: string, value: JsonValue | undefined, origin: UvOrigin): void => {
    if (value === undefined) return;
    const existing = origins[name];
    if (existing) {
      shadowed.push({ name, kept: existing, dropped: origin });
      return;
    }
    variables[name] = value;
    origins[name] = origin;
  };

  for (const [name, value] of Object.entries(channels.runtime ?? {})) {
    offer(name, value, { channel: "runtime", name });
  }
  for (const [name, value] of Object.entries(channels.parameters ?? {})) {
    offer(name, value, { channel: "parameters", name });
  }
  const handoff = Object.entries(handoffRecord);
  for (const [stepId, values] of handoff) {
    for (const [key, value] of Object.entries(values)) {
      offer(handoffUvName(stepId, key), value, { channel: "handoff", stepId, key, via: "key" });
    }
  }
  for (const [stepId, values] of handoff) {
    // Own entries only: step ids and keys are names an author chose (`toString` among them).
    const paths =
      (channels.handoffPaths === undefined ? undefined : ownEntry(channels.handoffPaths, stepId)) ??
      {};
    for (const [key, value] of Object.entries(values)) {
      const path = ownEntry(paths, key);
      if (path === undefined || path === key) continue;
      offer(handoffUvName(stepId, path), value, { channel: "handoff", stepId, key, via: "path" });
    }
  }
  return { variables, origins, shadowed };
}

/** `collectUvVariables(channels).variables`: the flat map alone. */
export function buildUvVariables(channels: UvChannels): UvVariables {
  return collectUvVariables(channels).variables;
}
