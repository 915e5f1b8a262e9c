import { ClimptError, type JsonValue, type VerdictSpec } from "@climpt/model";
import { COMPLETION_CODES } from "../codes.ts";

/** Reads and checks a verdict's `config` values; a wrong value throws `AC-VERDICT-003`. */
export class VerdictConfigReader {
  constructor(private readonly spec: VerdictSpec) {}

  private fail(key: string, wanted: string, got: JsonValue | undefined): never {
    throw new ClimptError({
      code: COMPLETION_CODES.verdictConfig,
      message: `Verdict "${this.spec.declaredType}" needs ${wanted} in config.${key}, but it is ${got === undefined ? "missing" : JSON.stringify(got)}.`,
      path: `$.runner.verdict.config.${key}`,
      hint: `Set "config": { "${key}": ${example(wanted)} } on the verdict in agent.json.`,
    });
  }

  value(key: string): JsonValue | undefined {
    return this.spec.config[key];
  }

  positiveInteger(key: string): number {
    const value = this.spec.config[key];
    if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value;
    if (typeof value === "string" && /^[1-9]\d*$/.test(value)) return Number(value);
    return this.fail(key, "a positive integer", value);
  }

  nonEmptyString(key: string): string {
    const value = this.spec.config[key];
    if (typeof value === "string" && value.trim() !== "") return value;
    return this.fail(key, "a non-empty string", value);
  }

  optionalString(key: string): string | undefined {
    const value = this.spec.config[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === "string" && value.trim() !== "") return value;
    return this.fail(key, "a non-empty string", value);
  }
}

function example(wanted: string): string {
  return wanted === "a positive integer" ? "10" : '"…"';
}
