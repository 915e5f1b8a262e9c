import type {
  DeclaredFlow,
  FlowEdgeView,
  FlowNodeKind,
  FlowNodeView,
  FlowView,
} from "./view-model.ts";

/** One move the run made, as the journal's route records it (plus `done` from the verdict). */
export interface TakenPath {
  readonly from: string;
  readonly to: string | null;
  /** `step`, `closing`, `complete`, `abort`, `validation-retry`, `enter-closure`, `done`. */
  readonly decision: string;
  /** The intent (or `validation-retry`) that took it. */
  readonly via: string | null;
}

export interface RunFacts {
  readonly entryStepId: string | null;
  /** Step id → executions. */
  readonly visits: ReadonlyMap<string, number>;
  /** Step id → the step kind the journal recorded. */
  readonly kinds: ReadonlyMap<string, string>;
  /** Closure step id → failed validator results (present when validators ran there). */
  readonly validatorFailures: ReadonlyMap<string, number>;
  readonly taken: readonly TakenPath[];
  readonly currentStepId: string | null;
  readonly failedStepId: string | null;
}

const START = "start";
const END = "end";
const stepKey = (id: string) => `s:${id}`;
const gateKey = (id: string) => `g:${id}`;

type MutableEdge = { -readonly [K in keyof FlowEdgeView]: FlowEdgeView[K] } & {
  readonly intent: string | null;
};

function stepKind(kind: string | undefined): FlowNodeKind {
  return kind === "verification" || kind === "closure" ? kind : "work";
}

/**
 * The flow as nodes and edges to lay out: the declared flow (or, without one, the steps the run
 * visited) with Start, End and a gate node for each closure step's validators, and on every node
 * and edge how often this run passed there. A move the registry does not declare (the registry
 * changed since the run, or a budget forced a move into closure) is drawn as an undeclared edge.
 */
export function buildFlowView(declared: DeclaredFlow | null, facts: RunFacts): FlowView {
  const nodes = new Map<string, FlowNodeView>();
  const edges: MutableEdge[] = [];
  const gated = new Set<string>();

  const addStep = (id: string, kind: FlowNodeKind, validators: readonly string[]) => {
    nodes.set(stepKey(id), {
      key: stepKey(id),
      label: id,
      kind,
      stepId: id,
      visits: facts.visits.get(id) ?? 0,
      validators: [],
      failures: 0,
    });
    if (validators.length === 0) return;
    gated.add(id);
    nodes.set(gateKey(id), {
      key: gateKey(id),
      label: validators.join(", "),
      kind: "gate",
      stepId: id,
      visits: 0,
      validators,
      failures: facts.validatorFailures.get(id) ?? 0,
    });
  };
  const ensureStep = (id: string) => {
    if (nodes.has(stepKey(id))) return;
    const known = facts.kinds.get(id);
    addStep(id, declared === null ? stepKind(known) : "missing", []);
  };
  const edge = (from: string, to: string, label: string, options: Partial<MutableEdge> = {}) => {
    const created: MutableEdge = {
      from,
      to,
      label,
      taken: 0,
      undeclared: false,
      retry: false,
      intent: null,
      ...options,
    };
    edges.push(created);
    return created;
  };

  if (declared !== null) {
    for (const step of declared.steps) addStep(step.id, step.kind, step.validators);
    for (const entry of declared.entries) edge(START, stepKey(entry), "start");
    for (const declaredEdge of declared.edges) {
      const from = declaredEdge.validationRetry
        ? gateKey(declaredEdge.from)
        : stepKey(declaredEdge.from);
      if (declaredEdge.to !== null && !nodes.has(stepKey(declaredEdge.to)))
        ensureStep(declaredEdge.to);
      const to =
        declaredEdge.to !== null
          ? stepKey(declaredEdge.to)
          : gated.has(declaredEdge.from)
            ? gateKey(declaredEdge.from)
            : END;
      edge(
        from,
        to,
        declaredEdge.validationRetry ? `fail: ${declaredEdge.label}` : declaredEdge.label,
        {
          retry: declaredEdge.validationRetry,
          intent: declaredEdge.intent,
        },
      );
    }
    for (const id of gated) edge(gateKey(id), END, "pass");
  }
  for (const id of facts.visits.keys()) ensureStep(id);

  /** Counts a move on the declared edge it matches, or adds it as an undeclared edge. */
  const take = (
    from: string,
    to: string,
    via: string | null,
    options: Partial<MutableEdge> = {},
  ) => {
    const candidates = edges.filter((candidate) => candidate.from === from && candidate.to === to);
    const match =
      candidates.find((candidate) => via !== null && candidate.intent === via) ?? candidates[0];
    if (match !== undefined) {
      match.taken++;
      return;
    }
    edge(from, to, via ?? "", { ...options, undeclared: declared !== null, taken: 1 });
  };

  if (facts.entryStepId !== null && facts.visits.size > 0) {
    ensureStep(facts.entryStepId);
    take(START, stepKey(facts.entryStepId), null, { label: "start" });
  }
  for (const move of facts.taken) {
    ensureStep(move.from);
    if (move.to !== null) ensureStep(move.to);
    switch (move.decision) {
      case "closing":
      case "complete":
        take(stepKey(move.from), gated.has(move.from) ? gateKey(move.from) : END, move.decision);
        break;
      case "done":
        if (gated.has(move.from)) take(gateKey(move.from), END, "pass");
        break;
      case "validation-retry":
        if (move.to === null) break;
        take(
          gated.has(move.from) ? gateKey(move.from) : stepKey(move.from),
          stepKey(move.to),
          null,
          { retry: true, label: "fail: validation retry" },
        );
        break;
      case "abort":
        take(stepKey(move.from), END, "abort");
        break;
      default:
        if (move.to !== null) take(stepKey(move.from), stepKey(move.to), move.via);
        break;
    }
  }
  // A gate counts how often it was consulted: every move into it.
  for (const id of gated) {
    const gate = nodes.get(gateKey(id));
    if (gate === undefined) continue;
    const consulted = edges
      .filter((candidate) => candidate.to === gateKey(id))
      .reduce((sum, candidate) => sum + candidate.taken, 0);
    nodes.set(gateKey(id), { ...gate, visits: consulted });
  }

  const used = new Set<string>(edges.flatMap((candidate) => [candidate.from, candidate.to]));
  const ordered: FlowNodeView[] = [];
  if (used.has(START))
    ordered.push({
      key: START,
      label: "Start",
      kind: "start",
      stepId: null,
      visits: 1,
      validators: [],
      failures: 0,
    });
  ordered.push(...nodes.values());
  if (used.has(END)) {
    const ended = edges
      .filter((candidate) => candidate.to === END)
      .reduce((sum, candidate) => sum + candidate.taken, 0);
    ordered.push({
      key: END,
      label: "End",
      kind: "end",
      stepId: null,
      visits: ended,
      validators: [],
      failures: 0,
    });
  }
  return {
    source: declared === null ? "journal" : "registry",
    nodes: ordered,
    edges: edges.map(({ intent: _intent, ...rest }) => rest),
    currentKey: facts.currentStepId === null ? null : stepKey(facts.currentStepId),
    failedKey: facts.failedStepId === null ? null : stepKey(facts.failedStepId),
  };
}
