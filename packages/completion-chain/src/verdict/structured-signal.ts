import type { JsonValue } from "@climpt/model";
import { IterationTracker } from "./iteration-tracker.ts";
import type {
  AfterIterationAnswer,
  DecideContext,
  IterationRecord,
  VerdictDecision,
  VerdictStrategy,
} from "./types.ts";

/** `requiredFields`: names that must be present, or name → the value it must have. */
export type RequiredFields = readonly string[] | Readonly<Record<string, JsonValue>>;

type JsonRecord = { readonly [key: string]: JsonValue };

/**
 * `detect:structured` (`structuredSignal`): done when the closure output carries the signal, or
 * when the closure step said `closing` and its output carries no signal at all (a signal that is
 * present must have its required fields).
 *
 * The signal is found, in this order:
 * 1. the output itself when `output.type` or `output.signal` equals `signalType`;
 * 2. `output[signalType]` when it is an object (that object is the signal);
 * 3. the output itself when `output[signalType] === true`;
 * 4. a fenced block ```` ```<signalType> {json} ``` ```` in the closure text (the original
 *    action-block form).
 *
 * `requiredFields` are dot paths inside the signal: as a list, each must be present and not
 * null; as an object, each must deep-equal the given value. `status: "completed"` alone is not
 * a signal (docs/design.md#intents: only `closing` is a completion signal).
 */
export class StructuredSignalVerdict implements VerdictStrategy {
  readonly type = "detect:structured";
  private readonly tracker = new IterationTracker();

  constructor(
    readonly signalType: string,
    readonly requiredFields: RequiredFields = [],
  ) {}

  observe(record: IterationRecord): void {
    this.tracker.observe(record);
  }

  async afterIteration(): Promise<AfterIterationAnswer | undefined> {
    return undefined;
  }

  async decide(ctx: DecideContext): Promise<VerdictDecision> {
    const signal = findSignal(this.signalType, ctx.closureOutput, ctx.closureText);
    if (signal === undefined && ctx.closing) {
      // The closure step's `closing` is itself the signal: an agent whose schema has no field
      // for the signal type must still be able to finish (docs/design.md#verdicts).
      return {
        done: true,
        reason: `closure step "${ctx.closureStepId}" said closing (no "${this.signalType}" field in its output; closing counts as the signal)`,
      };
    }
    if (signal === undefined) {
      return {
        done: false,
        reason: `structured signal "${this.signalType}" not found in the closure output`,
        retryHint: `The run ends only when your closing output carries the "${this.signalType}" signal: ${this.example()}. Finish the remaining work first.`,
      };
    }
    const problems = this.fieldProblems(signal);
    if (problems.length > 0) {
      return {
        done: false,
        reason: `structured signal "${this.signalType}" found but ${problems.join("; ")}`,
        retryHint: `Your "${this.signalType}" signal is incomplete (${problems.join("; ")}). Send it as ${this.example()}.`,
      };
    }
    return {
      done: true,
      reason: `structured signal "${this.signalType}" found with every required field`,
    };
  }

  uvVariables(): Record<string, JsonValue> {
    return this.tracker.uvVariables();
  }

  private fieldProblems(signal: JsonRecord): string[] {
    const problems: string[] = [];
    if (Array.isArray(this.requiredFields)) {
      for (const path of this.requiredFields as readonly string[]) {
        const value = readPath(signal, path);
        if (value === undefined || value === null) problems.push(`field "${path}" is missing`);
      }
      return problems;
    }
    for (const [path, expected] of Object.entries(
      this.requiredFields as Readonly<Record<string, JsonValue>>,
    )) {
      const value = readPath(signal, path);
      if (value === undefined) problems.push(`field "${path}" is missing`);
      else if (!deepEqual(value, expected)) {
        problems.push(
          `field "${path}" is ${JSON.stringify(value)}, expected ${JSON.stringify(expected)}`,
        );
      }
    }
    return problems;
  }

  private example(): string {
    const fields: Record<string, JsonValue> = { type: this.signalType };
    if (Array.isArray(this.requiredFields)) {
      for (const path of this.requiredFields as readonly string[]) fields[path] = "…";
    } else {
      Object.assign(fields, this.requiredFields);
    }
    return JSON.stringify(fields);
  }
}

function asRecord(value: JsonValue | undefined): JsonRecord | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as JsonRecord)
    : undefined;
}

function findSignal(signalType: string, output: JsonValue, text: string): JsonRecord | undefined {
  const record = asRecord(output);
  if (record !== undefined) {
    if (record.type === signalType || record.signal === signalType) return record;
    const nested = asRecord(record[signalType]);
    if (nested !== undefined) return nested;
    if (record[signalType] === true) return record;
  }
  return signalBlock(signalType, text);
}

function signalBlock(signalType: string, text: string): JsonRecord | undefined {
  const fence = "```";
  let from = 0;
  for (;;) {
    const start = text.indexOf(`${fence}${signalType}`, from);
    if (start === -1) return undefined;
    const bodyStart = text.indexOf("\n", start);
    const end = bodyStart === -1 ? -1 : text.indexOf(fence, bodyStart);
    if (end === -1) return undefined;
    const header = text.slice(start + fence.length, bodyStart).trim();
    if (header === signalType) {
      try {
        const parsed = asRecord(JSON.parse(text.slice(bodyStart + 1, end)) as JsonValue);
        if (parsed !== undefined) return parsed;
      } catch {
        // Not JSON: not a signal; keep looking.
      }
    }
    from = end + fence.length;
  }
}

/** Reads `a.b.0.c` (dots; numeric segments index arrays). A literal key with dots wins. */
export function readPath(root: JsonValue, path: string): JsonValue | undefined {
  const direct = asRecord(root)?.[path];
  if (direct !== undefined) return direct;
  let current: JsonValue | undefined = root;
  for (const segment of path.split(".")) {
    if (Array.isArray(current))
      current = /^\d+$/.test(segment) ? current[Number(segment)] : undefined;
    else current = asRecord(current)?.[segment];
    if (current === undefined) return undefined;
  }
  return current;
}

export function deepEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => deepEqual(item, b[index] as JsonValue))
    );
  }
  const ra = asRecord(a);
  const rb = asRecord(b);
  if (ra === undefined || rb === undefined) return false;
  const keys = Object.keys(ra);
  return (
    keys.length === Object.keys(rb).length &&
    keys.every((key) => key in rb && deepEqual(ra[key] as JsonValue, rb[key] as JsonValue))
  );
}
