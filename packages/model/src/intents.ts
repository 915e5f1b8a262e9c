/**
 * The fixed intent vocabulary of the runtime. Custom intents cannot be added:
 * a gate that reads anything else after alias mapping rejects it.
 */
export const GATE_INTENTS = [
  "next",
  "repeat",
  "jump",
  "handoff",
  "closing",
  "escalate",
  "abort",
] as const;

export type GateIntent = (typeof GATE_INTENTS)[number];

/** Step kinds that take part in the flow. `section` steps are prompt fragments with no flow. */
export const FLOW_STEP_KINDS = ["work", "verification", "closure"] as const;

export type FlowStepKind = (typeof FLOW_STEP_KINDS)[number];

export type StepKind = FlowStepKind | "section";

/**
 * Which intents each step kind may emit. `abort` is always allowed.
 * The table is the reason a work step cannot end the flow and a verification step cannot skip
 * closure: enforced at load time against `allowedIntents` and again at run time by the gate.
 */
export const STEP_KIND_INTENTS: Readonly<Record<FlowStepKind, readonly GateIntent[]>> = {
  work: ["next", "repeat", "jump", "handoff", "abort"],
  verification: ["next", "repeat", "jump", "escalate", "abort"],
  closure: ["closing", "repeat", "abort"],
};

/**
 * Values a model commonly writes instead of an intent, and the intent each one means
 * (the gate dialect's action aliases). Matching is case-insensitive.
 */
export const INTENT_ALIASES: Readonly<Record<string, GateIntent>> = {
  continue: "next",
  retry: "repeat",
  wait: "repeat",
  done: "closing",
  finished: "closing",
  pass: "next",
  fail: "repeat",
};

/**
 * The intent a value a model (or a schema enum) writes stands for: trimmed, case-insensitive,
 * an intent itself or an entry of `INTENT_ALIASES`. Anything else is not an intent.
 */
export function canonicalIntent(value: unknown): GateIntent | undefined {
  if (typeof value !== "string") return undefined;
  const word = value.trim().toLowerCase();
  if (isGateIntent(word)) return word;
  return Object.hasOwn(INTENT_ALIASES, word) ? INTENT_ALIASES[word] : undefined;
}

/** The aliases that stand for `intent` (`repeat` → retry, wait, fail), in table order. */
export function intentAliasesOf(intent: GateIntent): readonly string[] {
  // A loop over the keys, not entries + filter + map: the loader asks once per gated step.
  const aliases: string[] = [];
  for (const alias of Object.keys(INTENT_ALIASES)) {
    if (INTENT_ALIASES[alias] === intent) aliases.push(alias);
  }
  return aliases;
}

export function isGateIntent(value: unknown): value is GateIntent {
  return typeof value === "string" && (GATE_INTENTS as readonly string[]).includes(value);
}

export function isIntentAllowedForKind(kind: FlowStepKind, intent: GateIntent): boolean {
  return STEP_KIND_INTENTS[kind].includes(intent);
}

/**
 * The kind a step has when its definition does not say (inferred from c2, or from the
 * step id prefix): `closure` for closure steps, `verification` for verification steps,
 * `section` for injected sections, otherwise `work`.
 */
export function inferStepKind(stepId: string, c2: string | undefined): StepKind {
  const prefix = c2 ?? stepId.split(".")[0] ?? "";
  switch (prefix) {
    case "closure":
      return "closure";
    case "verification":
      return "verification";
    case "section":
      return "section";
    default:
      return "work";
  }
}
