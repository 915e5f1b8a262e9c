import {
  type FlowStepKind,
  type GateIntent,
  jsonPath,
  type Registry,
  recordValues,
  type Step,
  stepPath,
  type Transition,
  type ValidationOnFailure,
  type ValidationStep,
} from "@climpt/model";

/** Why an edge exists. Renderers and analyses read this instead of re-deriving it from the step. */
export type FlowEdgeKind =
  /** A declared gate transition (`transitions.<intent>`), one per target of a conditional. */
  | "transition"
  /** `initial.X` allows `next` and declares no `next` rule: the router goes to `continuation.X`. */
  | "implicit-next"
  /** `repeat` is allowed and has no transition (or a subprocess step's program failed): the step runs again. */
  | "implicit-repeat"
  /**
   * A closure step allows `closing` without declaring it (closing still starts completion), a
   * subprocess step's program exited 0, or a gate-less closure step leaves it to the verdict.
   */
  | "implicit-closing"
  /** Check dialect `onPass: {next}` or `onPass: {complete: true}`. */
  | "check-pass"
  /** Check dialect `onFail: {retry: true, maxRetries}`: the step runs again. */
  | "check-retry"
  /** Check dialect `onFail: {fallback}`. */
  | "check-fallback"
  /** The step prompt runs again while under `iterations.max`. */
  | "iteration"
  /** A failed validation of a closure step returns to a work step leading into it */
  | "validation-retry"
  /**
   * A budget verdict (`count:iteration`, `count:check`) that runs out sends the flow from any
   * work or verification step to the registry's first closure step (the router's enterClosure);
   * a spent run or step budget sends it from any other step to the registry's `onBudget` step
   * (docs/design.md#limits-and-budgets).
   */
  | "budget";

export interface FlowEdge {
  readonly from: string;
  /**
   * The step the edge leads to, or `null` for a terminal edge (the run completes, after the
   * closure's validation when it has one). May name a step that does not exist or is a section
   * step; analysis reports such edges and ignores them.
   */
  readonly to: string | null;
  readonly kind: FlowEdgeKind;
  /** What a reader sees on the arrow: the intent, `onPass`, `onFail: retry ≤2`, … */
  readonly label: string;
  /** The gate intent that takes this edge, for gate transitions and implicit edges. */
  readonly intent?: GateIntent;
  /** For a conditional transition: the handoff key and the value (or `default`) selecting this target. */
  readonly condition?: { readonly key: string; readonly value: string };
  /** How often the edge can be taken in a row before the runtime stops taking it; absent when unbounded. */
  readonly bound?: number;
  /** JSON path into steps_registry.json of the definition that creates the edge. */
  readonly path: string;
}

/** The validators gating a closure step's completion (its `validationSteps` entry). */
export interface FlowValidationGate {
  /** The `validationSteps` key. */
  readonly id: string;
  readonly validators: readonly string[];
  readonly onFailure: ValidationOnFailure;
}

export interface FlowNode {
  readonly id: string;
  readonly kind: FlowStepKind;
  /** Present on closure steps that have a `validationSteps` entry. */
  readonly validation?: FlowValidationGate;
}

/** Where a run may start: an `entryStepMapping` value (labelled by its verdict type) or `entryStep`. */
export interface FlowEntry {
  readonly stepId: string;
  /** The verdict type as written, or `entryStep`. */
  readonly label: string;
  readonly path: string;
}

/** The step flow of a registry: flow steps (section steps excluded), edges and entry points. */
export interface FlowGraph {
  /** In declaration order. */
  readonly nodes: readonly FlowNode[];
  /** Grouped by source step in declaration order; stable for a given registry. */
  readonly edges: readonly FlowEdge[];
  readonly entries: readonly FlowEntry[];
}

/** `≤2`, or nothing when the count does not bound anything (0 = unlimited in the check dialect). */
function boundSuffix(bound: number | undefined): string {
  return bound !== undefined && bound > 0 ? ` ≤${bound}` : "";
}

function positiveOrUndefined(value: number | undefined): number | undefined {
  return value !== undefined && value > 0 ? value : undefined;
}

/**
 * The intents a step's gate lets through; undefined without a gate. A transition for any other
 * intent can never be taken, so it draws no edge (analysis reports it as SR-INTENT-102).
 */
function allowedIntents(step: Step): ReadonlySet<GateIntent> | undefined {
  return step.gate === undefined ? undefined : new Set(step.gate.allowedIntents);
}

/** `initial.X` → `continuation.X`, the step the router falls back to for `next`. */
export function continuationOf(stepId: string): string | undefined {
  return stepId.startsWith("initial.")
    ? `continuation.${stepId.slice("initial.".length)}`
    : undefined;
}

/**
 * The `validationSteps` entry that applies to a closure step: the entry keyed by the step id, or
 * the first (in declaration order) whose `stepId` names it.
 */
export function validationStepFor(registry: Registry, stepId: string): ValidationStep | undefined {
  const byKey = registry.validationSteps[stepId];
  if (byKey !== undefined) return byKey;
  for (const entry of Object.values(registry.validationSteps)) {
    if (entry.stepId === stepId) return entry;
  }
  return undefined;
}

function transitionEdges(
  step: Step,
  intent: GateIntent,
  transition: Transition,
  path: string,
): FlowEdge[] {
  // Only a closure step's closing starts the completion chain, whatever its target says; a
  // non-null closing target is reported as SR-TRANS-104.
  const terminal = intent === "closing" && step.kind === "closure";
  if (transition.kind === "target") {
    if (terminal)
      return [{ from: step.id, to: null, kind: "transition", label: intent, intent, path }];
    // A null target on any other intent has no meaning for the router: no edge (SR-TRANS-103).
    if (transition.target === null) return [];
    return [
      { from: step.id, to: transition.target, kind: "transition", label: intent, intent, path },
    ];
  }
  const edges: FlowEdge[] = [];
  for (const [value, target] of Object.entries(transition.targets)) {
    const label =
      value === "default" ? `${intent} [default]` : `${intent} [${transition.condition}=${value}]`;
    edges.push({
      from: step.id,
      to: terminal ? null : target,
      kind: "transition",
      label,
      intent,
      condition: { key: transition.condition, value },
      path: jsonPath(jsonPath(path, "targets"), value),
    });
  }
  return edges;
}

function gateEdges(step: Step, flowSteps: ReadonlyMap<string, FlowStepKind>): FlowEdge[] {
  const edges: FlowEdge[] = [];
  const allowed = allowedIntents(step);
  const base = stepPath(step.id, "transitions");
  for (const [intent, transition] of Object.entries(step.transitions) as [
    GateIntent,
    Transition | undefined,
  ][]) {
    if (transition === undefined || intent === "abort") continue;
    if (allowed !== undefined && !allowed.has(intent)) continue;
    edges.push(...transitionEdges(step, intent, transition, jsonPath(base, intent)));
  }
  if (allowed === undefined) return edges;
  const gatePath = stepPath(step.id, "structuredGate", "allowedIntents");
  if (allowed.has("next") && step.transitions.next === undefined) {
    const continuation = continuationOf(step.id);
    if (continuation !== undefined && flowSteps.has(continuation)) {
      edges.push({
        from: step.id,
        to: continuation,
        kind: "implicit-next",
        label: "next",
        intent: "next",
        path: gatePath,
      });
    }
  }
  if (allowed.has("repeat") && step.transitions.repeat === undefined) {
    edges.push({
      from: step.id,
      to: step.id,
      kind: "implicit-repeat",
      label: "repeat",
      intent: "repeat",
      path: gatePath,
    });
  }
  if (step.kind === "closure" && allowed.has("closing") && step.transitions.closing === undefined) {
    edges.push({
      from: step.id,
      to: null,
      kind: "implicit-closing",
      label: "closing",
      intent: "closing",
      path: gatePath,
    });
  }
  return edges;
}

/**
 * Edges the model's intent does not draw. A subprocess step (`runner`) completes the run when its
 * program exits 0 and runs again otherwise (bounded by the run cap). A gate-dialect closure step
 * without a `structuredGate` is completed by the agent's verdict, as the original runtime does.
 */
function ungatedClosureEdges(step: Step, dialect: Registry["dialect"]): FlowEdge[] {
  if (step.subprocess !== undefined) {
    const path = stepPath(step.id, "runner");
    return [
      { from: step.id, to: null, kind: "implicit-closing", label: "exit 0", path },
      { from: step.id, to: step.id, kind: "implicit-repeat", label: "exit ≠ 0", path },
    ];
  }
  if (step.kind !== "closure" || step.gate !== undefined || dialect !== "gate") return [];
  return [
    {
      from: step.id,
      to: null,
      kind: "implicit-closing",
      label: "verdict",
      path: stepPath(step.id),
    },
  ];
}

function checkEdges(step: Step): FlowEdge[] {
  const edges: FlowEdge[] = [];
  const check = step.check;
  if (check === undefined) return edges;
  const checkPath = stepPath(step.id, "check");
  edges.push({
    from: step.id,
    to: check.onPass.kind === "complete" ? null : check.onPass.target,
    kind: "check-pass",
    label: "onPass",
    path: jsonPath(checkPath, "onPass"),
  });
  const onFail = check.onFail;
  if (onFail?.kind === "retry") {
    const bound = positiveOrUndefined(onFail.maxRetries);
    edges.push({
      from: step.id,
      to: step.id,
      kind: "check-retry",
      label: `onFail: retry${bound === undefined ? " (unlimited)" : boundSuffix(bound)}`,
      ...(bound === undefined ? {} : { bound }),
      path: jsonPath(checkPath, "onFail"),
    });
  } else if (onFail?.kind === "fallback") {
    edges.push({
      from: step.id,
      to: onFail.target,
      kind: "check-fallback",
      label: "onFail: fallback",
      path: jsonPath(checkPath, "onFail"),
    });
  }
  return edges;
}

function iterationEdge(step: Step): FlowEdge[] {
  if (step.iterations.max <= 1) return [];
  return [
    {
      from: step.id,
      to: step.id,
      kind: "iteration",
      label: `iteration${boundSuffix(step.iterations.max)}`,
      bound: step.iterations.max,
      path: stepPath(step.id, "iterations", "max"),
    },
  ];
}

/**
 * The work steps a failed validation of `closureId` returns to: walking back from the closure
 * along the flow's own edges, the first work step on each path (a verification step between work
 * and closure is passed through, as in the fix-bug example: implement → verify → closure).
 */
function workStepsLeadingInto(
  closureId: string,
  predecessors: ReadonlyMap<string, readonly string[]>,
  kindOf: ReadonlyMap<string, FlowStepKind>,
): string[] {
  const found: string[] = [];
  const seen = new Set<string>([closureId]);
  const queue: string[] = [closureId];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head] as string;
    for (const pred of predecessors.get(current) ?? []) {
      if (seen.has(pred)) continue;
      seen.add(pred);
      if (kindOf.get(pred) === "work") found.push(pred);
      else queue.push(pred);
    }
  }
  return found;
}

export interface FlowGraphOptions {
  /**
   * The agent's verdict is (or contains) a budget verdict, `count:iteration` or `count:check`:
   * when it runs out, the router moves from any work or verification step to the registry's
   * first closure step, an edge no transition declares (kind `budget`).
   */
  readonly budgetClosure?: boolean;
}

/** The closure step a budget sends the flow to: the first one declared (the router's rule). */
function budgetEdge(step: Step, closureId: string | undefined): FlowEdge[] {
  if (closureId === undefined || step.kind === "closure") return [];
  return [
    { from: step.id, to: closureId, kind: "budget", label: "budget", path: stepPath(closureId) },
  ];
}

/**
 * The registry's `onBudget` step: a spent budget (tokens, cost, the iteration cap, a step's
 * `limits`) sends the run there from whichever step was next, so every other step has the edge.
 */
function onBudgetEdge(step: Step, onBudget: string | undefined, label: string): FlowEdge[] {
  if (onBudget === undefined || step.id === onBudget) return [];
  return [{ from: step.id, to: onBudget, kind: "budget", label, path: "$.onBudget" }];
}

/**
 * Builds the flow graph of a registry. Pure and linear in the size of the registry, apart from
 * the walk back from each validated closure step.
 */
export function buildFlowGraph(registry: Registry, options: FlowGraphOptions = {}): FlowGraph {
  const flowSteps = recordValues(registry.steps).filter((step) => step.kind !== "section");
  // The flow steps' kinds, and (its keys) their ids: one map of every step, not two.
  const kindOf = new Map<string, FlowStepKind>();
  for (const step of flowSteps) kindOf.set(step.id, step.kind as FlowStepKind);
  const budgetClosure =
    options.budgetClosure === true
      ? flowSteps.find((step) => step.kind === "closure")?.id
      : undefined;

  const ownEdges = new Map<string, FlowEdge[]>();
  const predecessors = new Map<string, string[]>();
  for (const step of flowSteps) {
    const edges = [
      ...gateEdges(step, kindOf),
      ...ungatedClosureEdges(step, registry.dialect),
      ...checkEdges(step),
      ...iterationEdge(step),
      ...budgetEdge(step, budgetClosure),
      // The verdict's budget edge already leads there: one arrow, not two.
      ...(budgetClosure === registry.onBudget && step.kind !== "closure"
        ? []
        : onBudgetEdge(step, registry.onBudget, "onBudget")),
    ];
    ownEdges.set(step.id, edges);
    for (const edge of edges) {
      if (edge.to === null || edge.to === step.id || !kindOf.has(edge.to)) continue;
      const list = predecessors.get(edge.to);
      if (list === undefined) predecessors.set(edge.to, [step.id]);
      else list.push(step.id);
    }
  }

  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  for (const step of flowSteps) {
    const kind = step.kind as FlowStepKind;
    edges.push(...(ownEdges.get(step.id) ?? []));
    const validation = kind === "closure" ? validationStepFor(registry, step.id) : undefined;
    if (validation === undefined) {
      nodes.push({ id: step.id, kind });
      continue;
    }
    nodes.push({
      id: step.id,
      kind,
      validation: {
        id: validation.id,
        validators: validation.conditions.map((condition) => condition.validator),
        onFailure: validation.onFailure,
      },
    });
    if (validation.onFailure.action !== "retry") continue;
    const bound = positiveOrUndefined(validation.onFailure.maxAttempts);
    const path = jsonPath(jsonPath("$.validationSteps", validation.id), "onFailure");
    for (const workStep of workStepsLeadingInto(step.id, predecessors, kindOf)) {
      edges.push({
        from: step.id,
        to: workStep,
        kind: "validation-retry",
        label: `validation retry${boundSuffix(bound)}`,
        ...(bound === undefined ? {} : { bound }),
        path,
      });
    }
  }

  const entries: FlowEntry[] = [];
  for (const [verdictType, stepId] of Object.entries(registry.entryStepMapping)) {
    entries.push({ stepId, label: verdictType, path: jsonPath("$.entryStepMapping", verdictType) });
  }
  if (registry.entryStep !== undefined) {
    entries.push({ stepId: registry.entryStep, label: "entryStep", path: "$.entryStep" });
  }
  return { nodes, edges, entries };
}
