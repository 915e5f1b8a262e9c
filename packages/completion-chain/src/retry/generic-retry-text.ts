import type { FailurePattern, JsonValue } from "@climpt/model";
import type { ValidatorResult } from "@climpt/validators";
import type { VerdictDecision } from "../verdict/types.ts";
import { capText } from "./cap-text.ts";

export interface ValidatorFailureText {
  readonly closureStepId: string;
  readonly returnStepId: string;
  readonly failure: ValidatorResult;
  readonly pattern?: FailurePattern | undefined;
  /** The params the failure pattern would have received. */
  readonly params: Readonly<Record<string, JsonValue | undefined>>;
  /** Every failed validator, in declared order (the first is `failure`). */
  readonly failures: readonly ValidatorResult[];
  readonly outputCapChars: number;
}

/**
 * The retry prompt when the agent has no prompt file for the failure: it carries what a
 * person would need to act on it (which check, the command, how it failed, what was extracted,
 * the output) and what to do next.
 */
export function genericValidatorRetryText(input: ValidatorFailureText): string {
  const { failure, pattern } = input;
  const lines: string[] = [];
  lines.push(
    `# Not done yet: the close-out of step "${input.closureStepId}" was refused`,
    "",
    `The runner checked your work before finishing, and validator "${failure.id}" failed${pattern === undefined ? "" : ` (${pattern.id}: ${pattern.description})`}.`,
    "",
    `- Command: \`${failure.command}\``,
    `- Result: ${outcome(failure)}`,
  );
  const others = input.failures.filter((result) => result !== failure);
  if (others.length > 0) {
    lines.push(
      `- Also failing: ${others.map((result) => `${result.id} (\`${result.command}\`, ${outcome(result)})`).join("; ")}`,
    );
  }
  const extracted = Object.entries(input.params).filter(
    ([name, value]) => value !== undefined && !BUILT_IN_PARAMS.has(name),
  );
  if (extracted.length > 0) {
    lines.push("", "Details found in the output:");
    for (const [name, value] of extracted) {
      lines.push(
        `- ${name}: ${capText(typeof value === "string" ? value : JSON.stringify(value), 2000)}`,
      );
    }
  }
  const output = combined(failure, input.outputCapChars);
  lines.push(
    "",
    output === "" ? "The command printed nothing." : `Output:\n\`\`\`\n${output}\n\`\`\``,
  );
  lines.push(
    "",
    `Fix what this reports, run \`${failure.command}\` yourself until it passes, and continue the work of step "${input.returnStepId}"; the flow reaches the close-out again when you hand off.`,
  );
  return `${lines.join("\n")}\n`;
}

export interface VerdictRetryText {
  readonly closureStepId: string;
  readonly returnStepId: string;
  readonly verdictType: string;
  readonly decision: VerdictDecision;
}

/** The retry prompt when validation passed but the verdict said not done, without a prompt file. */
export function genericVerdictRetryText(input: VerdictRetryText): string {
  const lines = [
    `# Not done yet: the close-out of step "${input.closureStepId}" was refused`,
    "",
    `Every check passed, but the completion condition (${input.verdictType}) is not met: ${input.decision.reason}.`,
  ];
  if (input.decision.retryHint !== undefined) lines.push("", input.decision.retryHint);
  lines.push(
    "",
    `Continue the work of step "${input.returnStepId}"; the flow reaches the close-out again when you hand off.`,
  );
  return `${lines.join("\n")}\n`;
}

/** Names the chain adds to every failure's params (not extracted from output). */
export const BUILT_IN_PARAMS: ReadonlySet<string> = new Set([
  "validator",
  "command",
  "exitCode",
  "stdout",
  "stderr",
  "output",
  "timedOut",
  "error",
  "failurePattern",
  "description",
]);

export function outcome(result: ValidatorResult): string {
  if (result.timedOut) return `timed out after ${result.durationMs} ms and was stopped`;
  if (result.exitCode === null) {
    return result.error === undefined
      ? "did not finish"
      : `did not finish (${result.error.message})`;
  }
  // A failed validator can exit 0: `successWhen` judged its output (`empty`, `contains:`).
  return result.exitCode === 0 && !result.passed
    ? "exit code 0, but the output does not meet the validator's success condition (successWhen)"
    : `exit code ${result.exitCode}`;
}

/** stdout and stderr, each capped, stderr after stdout. */
export function combined(result: ValidatorResult, cap: number): string {
  const parts = [result.stdout.trimEnd(), result.stderr.trimEnd()].filter((part) => part !== "");
  return parts.map((part) => capText(part, cap)).join("\n");
}
