import type { JsonValue } from "@climpt/model";
import type { IterationRecord } from "./types.ts";

/**
 * What every built-in strategy remembers from `observe`: the last iteration number and the
 * last step summary, which becomes `previous_summary` (channel 3). A summary is the output's
 * `summary` string (the field the original schemas use), else nothing.
 */
export class IterationTracker {
  lastIteration = 0;
  previousSummary: string | undefined;

  observe(record: IterationRecord): void {
    if (record.iteration > this.lastIteration) this.lastIteration = record.iteration;
    const summary = summaryOf(record.output);
    if (summary !== undefined) this.previousSummary = summary;
  }

  uvVariables(): Record<string, JsonValue> {
    return this.previousSummary === undefined ? {} : { previous_summary: this.previousSummary };
  }
}

function summaryOf(output: JsonValue): string | undefined {
  if (typeof output !== "object" || output === null || Array.isArray(output)) return undefined;
  const summary = output.summary;
  return typeof summary === "string" && summary.trim() !== "" ? summary : undefined;
}
