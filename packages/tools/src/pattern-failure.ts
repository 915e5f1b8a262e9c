import type { ToolResult } from "@climpt/model";
import { failure } from "./builtin-tool.ts";
import { TOOL_CODES } from "./codes.ts";

/** How long Grep and Glob may match before they stop with TOOL-PATTERN-001. */
export const PATTERN_DEADLINE_MS = 20_000;

/** A pattern that ran past its deadline or was aborted, as the model sees it. */
export function patternFailure(
  what: "pattern" | "glob",
  text: string,
  outcome: { readonly reason: string; readonly message: string },
): ToolResult {
  if (outcome.reason === "aborted") {
    return failure(TOOL_CODES.patternTimeout, `the search was aborted: ${outcome.message}`);
  }
  if (outcome.reason === "timeout") {
    return failure(
      TOOL_CODES.patternTimeout,
      `the ${what} ${JSON.stringify(text)} ${outcome.message} Nested repetition such as (a+)+ or many overlapping alternatives backtrack for a very long time; simplify the ${what}.`,
    );
  }
  return failure(TOOL_CODES.ioFailure, `the search failed: ${outcome.message}`);
}
