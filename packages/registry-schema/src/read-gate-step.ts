/**
 * One gate-dialect step (named by phase, with `structuredGate` and `transitions`) → `Step`.
 * Every bad field is reported with its JSON path and defaulted, so the rest is still read.
 */
import {
  canonicalIntent,
  closestMatch,
  contextKeysOf,
  DEFAULT_SUBPROCESS_TIMEOUT_MS,
  findContextRefs,
  GATE_INTENTS,
  type GateIntent,
  type HandoffField,
  inferStepKind,
  isGateIntent,
  isPlainObject,
  jsonPath,
  ownRecord,
  recordEntries,
  type Step,
  type StepKind,
  type StepSubprocess,
  type StructuredGate,
  setEntry,
  type Transition,
} from "@climpt/model";
import { readDeclaredEnv } from "./declared-env.ts";
import { durationToMs } from "./duration.ts";
import {
  describeValue,
  type Findings,
  readFields,
  readObject,
  report,
  reportNotObject,
} from "./field-reader.ts";
import {
  conditionalTransitionSchema,
  gateStepSchema,
  structuredGateSchema,
  subprocessRunnerSchema,
  targetTransitionSchema,
} from "./registry-file-schema.ts";
import { checkPromptSegments, checkStepKey, limitsOf, permissionsOf } from "./step-fields.ts";

export function readGateStep(
  key: string,
  raw: Record<string, unknown>,
  at: string,
  c1: string,
  findings: Findings,
): Step {
  const fields = readFields(gateStepSchema.entries, raw, at, findings, {
    skip: ["structuredGate", "transitions", "runner"],
  });
  checkStepKey(key, fields.stepId, "stepId", at, findings);
  checkPromptSegments(fields, at, findings);
  const gate =
    raw.structuredGate === undefined
      ? undefined
      : readGate(raw.structuredGate, `${at}.structuredGate`, findings);
  const transitions =
    raw.transitions === undefined
      ? {}
      : readTransitions(raw.transitions, `${at}.transitions`, findings);
  const kind = fields.stepKind ?? inferStepKind(key, fields.c2);
  const subprocess =
    raw.runner === undefined
      ? undefined
      : readSubprocess(raw.runner, `${at}.runner`, key, kind, findings);
  return {
    id: key,
    ...(fields.name === undefined ? {} : { name: fields.name }),
    ...(fields.description === undefined ? {} : { description: fields.description }),
    kind,
    kindSource: fields.stepKind === undefined ? "inferred" : "declared",
    prompt: {
      kind: "c3l",
      c1,
      c2: fields.c2 ?? "",
      c3: fields.c3 ?? "",
      edition: fields.edition ?? "default",
      ...(fields.adaptation === undefined ? {} : { adaptation: fields.adaptation }),
    },
    ...(fields.fallbackKey === undefined ? {} : { fallbackKey: fields.fallbackKey }),
    uvVariables: fields.uvVariables ?? [],
    usesStdin: fields.usesStdin ?? false,
    ...(fields.outputSchemaRef === undefined
      ? {}
      : {
          outputSchemaRef: {
            file: fields.outputSchemaRef.file,
            schema: fields.outputSchemaRef.schema,
          },
        }),
    ...(gate === undefined ? {} : { gate }),
    transitions,
    iterations: { min: 1, max: 1 },
    handoff: gate === undefined ? [] : gate.handoffFields.map(handoffFromField),
    ...(fields.model === undefined ? {} : { model: fields.model }),
    permissions: permissionsOf(fields),
    ...limitsOf(fields),
    ...(subprocess === undefined ? {} : { subprocess }),
  };
}

/**
 * `runner` (a program instead of the model). Only a closure step can run one: its exit status is
 * the step's closing or repeat, which only a closure step may say (docs/design.md#steps-and-kinds).
 */
function readSubprocess(
  raw: unknown,
  at: string,
  stepId: string,
  kind: StepKind,
  findings: Findings,
): StepSubprocess | undefined {
  const fields = readObject(subprocessRunnerSchema.entries, raw, at, findings, { skip: ["env"] });
  if (fields?.command === undefined || !isPlainObject(raw)) return undefined;
  if (kind !== "closure") {
    report(
      findings,
      "SR-VALID-009",
      at,
      `Step "${stepId}" is a ${kind} step with a runner; only a closure step can run a program, because its exit status ends the flow (exit 0) or repeats the step.`,
      'Declare "stepKind": "closure" on it (and route into it with handoff), or move the runner to the closure step.',
    );
  }
  const args = fields.args ?? [];
  args.forEach((arg, index) => {
    if (!findContextRefs(arg).includes("")) return;
    report(
      findings,
      "SR-VALID-009",
      jsonPath(`${at}.args`, index),
      `Argument ${JSON.stringify(arg)} of step "${stepId}" has a \${context.} reference without a name.`,
      `Write \${context.<parameter name>}, e.g. \${context.prNumber}.`,
    );
  });
  return {
    command: fields.command,
    args,
    timeoutMs:
      fields.timeout === undefined ? DEFAULT_SUBPROCESS_TIMEOUT_MS : durationToMs(fields.timeout),
    contextKeys: contextKeysOf(args),
    ...readDeclaredEnv(raw.env, `${at}.env`, `Step "${stepId}"'s runner`, findings),
  };
}

/** `analysis.understanding` → `{key: "understanding", path: "analysis.understanding"}`. */
export function handoffFromField(path: string): HandoffField {
  const segments = path.split(".").filter((segment) => segment !== "");
  const last = segments[segments.length - 1] ?? path;
  return { key: last.replace(/\[\d+\]$/, ""), path };
}

function readGate(raw: unknown, at: string, findings: Findings): StructuredGate | undefined {
  const fields = readObject(structuredGateSchema.entries, raw, at, findings, {
    skip: ["allowedIntents"],
    codes: { fallbackIntent: "SR-INTENT-002" },
  });
  if (fields === undefined || !isPlainObject(raw)) return undefined;
  const allowedIntents = readIntents(raw.allowedIntents, `${at}.allowedIntents`, findings);
  return {
    allowedIntents,
    intentSchemaRef: fields.intentSchemaRef ?? "",
    intentField: fields.intentField ?? "",
    ...(fields.targetField === undefined ? {} : { targetField: fields.targetField }),
    handoffFields: fields.handoffFields ?? [],
    ...(fields.targetMode === undefined ? {} : { targetMode: fields.targetMode }),
    failFast: fields.failFast ?? true,
    ...(fields.fallbackIntent === undefined ? {} : { fallbackIntent: fields.fallbackIntent }),
  };
}

function readIntents(raw: unknown, at: string, findings: Findings): GateIntent[] {
  if (raw === undefined) {
    report(
      findings,
      "SR-LOAD-005",
      at,
      `Required field ${at} is missing.`,
      'List the intents this step may emit, e.g. "allowedIntents": ["next", "repeat"].',
    );
    return [];
  }
  if (!Array.isArray(raw)) {
    report(
      findings,
      "SR-LOAD-005",
      at,
      `${at} must be an array of intents, but is ${describeValue(raw)}.`,
      'Write e.g. "allowedIntents": ["next", "repeat"].',
    );
    return [];
  }
  const intents: GateIntent[] = [];
  raw.forEach((value, index) => {
    if (isGateIntent(value)) {
      intents.push(value);
      return;
    }
    const alias = canonicalIntent(value);
    report(
      findings,
      "SR-INTENT-002",
      jsonPath(at, index),
      `${describeValue(value)} is not an intent; custom intents cannot be added.`,
      alias === undefined
        ? "Use one of next, repeat, jump, handoff, closing, escalate, abort."
        : `Write "${alias}" instead: "${String(value)}" is an alias the gate maps to "${alias}" at run time, not an intent.`,
    );
  });
  return intents;
}

/**
 * A conditional transition's `targets` (handoff value → step id) as a record with no prototype,
 * read from the file as written: the schema's record has checked that every value is a string
 * but drops keys such as `constructor`, and the router looks a model's handoff value up in it
 * (a value `toString` must fall back to `default`, never find Object.prototype's).
 */
function ownTargets(raw: unknown): Record<string, string> {
  const targets = ownRecord<string>();
  if (!isPlainObject(raw)) return targets;
  for (const [value, target] of recordEntries(raw)) {
    if (typeof target === "string") setEntry(targets, value, target);
  }
  return targets;
}

/**
 * SR-TRANS-013 for a `transitions` key that is not an intent, with the intent it stands for: the
 * one an alias maps to, or the closest intent to a typo (`handof` → `handoff`). That intent, when
 * the step does not also key it, is returned so the transition is still read under it.
 */
function misspeltIntent(
  written: string,
  raw: Readonly<Record<string, unknown>>,
  here: string,
  findings: Findings,
): GateIntent | undefined {
  const alias = canonicalIntent(written);
  const typo = alias === undefined ? closestMatch(written, GATE_INTENTS) : undefined;
  const meant = alias ?? (typo !== undefined && isGateIntent(typo) ? typo : undefined);
  report(
    findings,
    "SR-TRANS-013",
    here,
    `transitions key "${written}" is not an intent, so no output can ever take it.${meant !== undefined && alias === undefined ? ` Did you mean "${meant}"?` : ""}`,
    alias !== undefined
      ? `Key it by "${alias}" (the gate maps "${written}" to "${alias}").`
      : meant !== undefined
        ? `Rename the key to "${meant}".`
        : "Key transitions by next, repeat, jump, handoff, closing, escalate or abort.",
  );
  return meant !== undefined && !Object.hasOwn(raw, meant) ? meant : undefined;
}

function readTransitions(
  raw: unknown,
  at: string,
  findings: Findings,
): Partial<Record<GateIntent, Transition>> {
  const transitions: Partial<Record<GateIntent, Transition>> = {};
  if (!isPlainObject(raw)) {
    reportNotObject(findings, raw, at);
    return transitions;
  }
  for (const [written, value] of Object.entries(raw)) {
    const here = jsonPath(at, written);
    let intent: GateIntent;
    if (isGateIntent(written)) {
      intent = written;
    } else {
      const meant = misspeltIntent(written, raw, here, findings);
      if (meant === undefined) continue;
      // Read on as the intent meant, so the checks after loading (a gate without transitions, an
      // allowed intent without one, flow analysis) do not each restate this one mistake.
      intent = meant;
    }
    if (!isPlainObject(value)) {
      reportNotObject(findings, value, here);
      continue;
    }
    if (Object.hasOwn(value, "condition") || Object.hasOwn(value, "targets")) {
      const fields = readObject(conditionalTransitionSchema.entries, value, here, findings);
      if (fields?.condition !== undefined && fields.targets !== undefined) {
        transitions[intent] = {
          kind: "conditional",
          condition: fields.condition,
          targets: ownTargets(value.targets),
        };
      }
      continue;
    }
    if (!Object.hasOwn(value, "target")) {
      report(
        findings,
        "SR-LOAD-005",
        here,
        `Transition ${here} has neither "target" nor "condition" + "targets".`,
        `Write { "target": "<step id>" }${intent === "closing" ? ' or { "target": null }' : ""}, or { "condition": "<handoff key>", "targets": { "<value>": "<step id>", "default": "<step id>" } }.`,
      );
      continue;
    }
    const fields = readFields(targetTransitionSchema.entries, value, here, findings);
    if (fields.target !== undefined)
      transitions[intent] = { kind: "target", target: fields.target };
  }
  return transitions;
}
