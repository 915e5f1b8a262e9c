import type { JsonValue, Step } from "@climpt/model";
import { readDotPath, shortKeyOf } from "./dot-path.ts";
import { coerceJsonObject } from "./parse-json-output.ts";

/** Handoff values of one step execution, by short key and by the path they were read from. */
export interface HandoffExtraction {
  readonly handoff: Readonly<Record<string, JsonValue>>;
  readonly handoffPaths: Readonly<Record<string, JsonValue>>;
}

/** Sets `key` as an ordinary own property, even when it is `__proto__`. */
function setOwn(record: Record<string, JsonValue>, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    Object.defineProperty(record, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    record[key] = value;
  }
}

/**
 * Reads `(key, path)` pairs from an output. A field the output does not have is simply absent:
 * the next step's prompt then has no value for it, which the prompt resolver reports if the
 * prompt needs it. When two paths share a short key, the later declaration wins for the short
 * key; both stay available by path.
 */
export function readHandoff(
  output: unknown,
  fields: readonly { readonly key: string; readonly path: string }[],
): HandoffExtraction {
  const handoff: Record<string, JsonValue> = {};
  const handoffPaths: Record<string, JsonValue> = {};
  for (const field of fields) {
    const value = readDotPath(output, field.path);
    if (value === undefined) continue;
    setOwn(handoff, field.key, value);
    setOwn(handoffPaths, field.path, value);
  }
  return { handoff, handoffPaths };
}

/** Gate-dialect handoff: every `structuredGate.handoffFields` path, keyed by its short key. */
export function gateHandoffFields(
  handoffFields: readonly string[],
): readonly { readonly key: string; readonly path: string }[] {
  return handoffFields.map((path) => ({ key: shortKeyOf(path), path }));
}

/**
 * The handoff a step declares, as `(key, path)` pairs: the one rule `interpretGate` and
 * `extractHandoff` both read, so a step's handoff is the same whichever reads it. A gate step's
 * declaration is its `structuredGate.handoffFields` (the file format; keys are `shortKeyOf` the
 * path). `step.handoff` is the check dialect's declaration, and for a gate step it is read only
 * when `handoffFields` is empty: a registry built in code that filled `handoff` alone still hands
 * its values on (before, `interpretGate` ignored them).
 */
export function handoffFieldsOf(
  step: Pick<Step, "handoff" | "gate">,
): readonly { readonly key: string; readonly path: string }[] {
  const gateFields = step.gate?.handoffFields ?? [];
  return gateFields.length > 0 ? gateHandoffFields(gateFields) : step.handoff;
}

/**
 * Reads the step's declared handoff (`handoffFieldsOf`) from its output
 * (docs/design.md#handoff). The output may be an object, a JSON string, or JSON in a ```json
 * fence, so one call works for either dialect.
 */
export function extractHandoff(step: Step, output: unknown): HandoffExtraction {
  const object = coerceJsonObject(output);
  if (!object.ok) return { handoff: {}, handoffPaths: {} };
  return readHandoff(object.value, handoffFieldsOf(step));
}
