import { handoffUvName, type JsonValue, type Registry } from "@climpt/model";

/** A (step, key) pair that supplies a handoff variable, by its key or by its dot path. */
interface Supplier {
  readonly stepId: string;
  readonly key: string;
  readonly via: "key" | "path";
}

/** One step's latest handoff and when the step first handed anything off. */
interface StepHandoff {
  readonly order: number;
  values: Readonly<Record<string, JsonValue>>;
}

/** A handoff variable found by name: the value that wins, and the suppliers it shadows. */
export interface HandoffLookup {
  readonly value: JsonValue;
  readonly stepId: string;
  readonly key: string;
  readonly via: "key" | "path";
  /** Other (step, key) pairs with a value under the same name, in the order they lost. */
  readonly shadowed: readonly Supplier[];
}

/**
 * Per registry object: the key → dot path of every declared handoff field whose path differs
 * from its key. A registry is immutable once loaded.
 */
const pathsByRegistry = new WeakMap<Registry, Record<string, Record<string, string>>>();

/** The full dot paths of every declared handoff field whose path differs from its short key. */
export function registryHandoffPaths(registry: Registry): Record<string, Record<string, string>> {
  const cached = pathsByRegistry.get(registry);
  if (cached !== undefined) return cached;
  const paths: Record<string, Record<string, string>> = Object.create(null);
  for (const step of Object.values(registry.steps)) {
    for (const field of step.handoff) {
      if (field.path === field.key) continue;
      paths[step.id] ??= Object.create(null);
      (paths[step.id] as Record<string, string>)[field.key] = field.path;
    }
  }
  pathsByRegistry.set(registry, paths);
  return paths;
}

function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  // defineProperty: a step id like "__proto__" stays an ordinary own key.
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * Channel 4 (the handoff) kept for lookups by variable name, so a prompt reads only the
 * variables it uses at a cost that does not grow with the steps already run. A runner keeps one
 * per run and calls `set` once per step end (cost: the keys that step handed off); the prompt
 * resolver looks up each name a prompt uses (cost: the few steps that can supply that name).
 *
 * The rules are those of `collectUvVariables`: a value is named `<step>_<key>` (dots → `_`) and,
 * when its declared dot path differs from its key, also after the path; a name supplied by key
 * beats one supplied by path; among several steps, the step that handed off first wins.
 */
export class HandoffVariables {
  /** Step id → its latest execution's handoff by key, steps in order of first handoff. */
  readonly byStep: Record<string, Readonly<Record<string, JsonValue>>> = {};
  private readonly steps = new Map<string, StepHandoff>();
  /** Variable name → every (step, key) that has ever supplied it. */
  private readonly suppliers = new Map<string, Supplier[]>();
  private readonly paths: Readonly<Record<string, Readonly<Record<string, string>>>>;

  /**
   * `registry`: where the declared dot paths come from; `paths` adds or overrides them
   * (step id → key → path), like `UvChannels.handoffPaths`.
   */
  constructor(
    registry?: Registry,
    paths: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
  ) {
    const fromRegistry = registry === undefined ? undefined : registryHandoffPaths(registry);
    if (fromRegistry === undefined || Object.keys(paths).length === 0) {
      // One source: shared as it is (read only), not copied.
      this.paths = fromRegistry ?? paths;
      return;
    }
    const merged: Record<string, Readonly<Record<string, string>>> = Object.create(null);
    for (const [stepId, byKey] of Object.entries(fromRegistry)) merged[stepId] = byKey;
    for (const [stepId, byKey] of Object.entries(paths)) {
      // `merged` has no prototype, so `__proto__` is an entry here like any step id.
      merged[stepId] = { ...(merged[stepId] ?? {}), ...byKey };
    }
    this.paths = merged;
  }

  /** An index of a plain `step id → key → value` record (`UvChannels.handoff`). */
  static from(
    handoff: Readonly<Record<string, Readonly<Record<string, JsonValue | undefined>>>>,
    registry?: Registry,
    paths?: Readonly<Record<string, Readonly<Record<string, string>>>>,
  ): HandoffVariables {
    const index = new HandoffVariables(registry, paths);
    for (const [stepId, values] of Object.entries(handoff)) index.set(stepId, values);
    return index;
  }

  /** Step `stepId` handed off `values` (its latest execution): they replace its earlier ones. */
  set(stepId: string, values: Readonly<Record<string, JsonValue | undefined>>): void {
    const kept: Record<string, JsonValue> = {};
    for (const [key, value] of Object.entries(values)) {
      if (value !== undefined) setOwn(kept, key, value);
    }
    const known = this.steps.get(stepId);
    if (known === undefined) this.steps.set(stepId, { order: this.steps.size, values: kept });
    else known.values = kept;
    setOwn(this.byStep, stepId, kept);
    const paths = Object.hasOwn(this.paths, stepId) ? this.paths[stepId] : undefined;
    for (const key of Object.keys(kept)) {
      this.addSupplier(handoffUvName(stepId, key), { stepId, key, via: "key" });
      const path = paths !== undefined && Object.hasOwn(paths, key) ? paths[key] : undefined;
      if (path !== undefined && path !== key) {
        this.addSupplier(handoffUvName(stepId, path), { stepId, key, via: "path" });
      }
    }
  }

  /** The handoff value named `name` (exactly as written; no dot folding), if a step supplies it. */
  lookup(name: string): HandoffLookup | undefined {
    const suppliers = this.suppliers.get(name);
    if (suppliers === undefined) return undefined;
    const live = suppliers.filter((supplier) => this.valueOf(supplier) !== undefined);
    if (live.length === 0) return undefined;
    if (live.length > 1) live.sort((a, b) => this.rank(a) - this.rank(b));
    const [winner, ...shadowed] = live as [Supplier, ...Supplier[]];
    return { ...winner, value: this.valueOf(winner) as JsonValue, shadowed };
  }

  /** Every variable name with a value, for messages that list what is available. */
  names(): string[] {
    return [...this.suppliers.keys()].filter((name) => this.lookup(name) !== undefined);
  }

  private valueOf(supplier: Supplier): JsonValue | undefined {
    const values = this.steps.get(supplier.stepId)?.values;
    return values !== undefined && Object.hasOwn(values, supplier.key)
      ? values[supplier.key]
      : undefined;
  }

  /** By key before by path, then the step that handed off first, then the step's key order. */
  private rank(supplier: Supplier): number {
    const step = this.steps.get(supplier.stepId) as StepHandoff;
    const keyIndex = Object.keys(step.values).indexOf(supplier.key);
    return (supplier.via === "key" ? 0 : 1) * 2 ** 40 + step.order * 2 ** 20 + keyIndex;
  }

  private addSupplier(name: string, supplier: Supplier): void {
    const list = this.suppliers.get(name);
    if (list === undefined) {
      this.suppliers.set(name, [supplier]);
      return;
    }
    const seen = list.some(
      (known) =>
        known.stepId === supplier.stepId &&
        known.key === supplier.key &&
        known.via === supplier.via,
    );
    if (!seen) list.push(supplier);
  }
}
