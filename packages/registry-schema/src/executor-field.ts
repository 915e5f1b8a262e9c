import { editDistance, STEP_EXECUTOR_NAMES, type StepExecutorName } from "@climpt/model";
import { describeValue, type Findings, report } from "./field-reader.ts";

/**
 * The executor a misspelt value most likely meant: the same letters once case and separators are
 * ignored (`claude_code`, `ClaudeCode`), a prefix (`claude`, `message`), or a few typos away.
 */
export function closestExecutorName(value: string): StepExecutorName | undefined {
  const squeeze = (text: string): string => text.toLowerCase().replace(/[^a-z]/g, "");
  const wanted = squeeze(value);
  if (wanted === "") return undefined;
  let best: StepExecutorName | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of STEP_EXECUTOR_NAMES) {
    const candidate = squeeze(name);
    if (candidate.startsWith(wanted) || wanted.startsWith(candidate)) return name;
    const edits = editDistance(wanted, candidate);
    if (edits < bestDistance) {
      best = name;
      bestDistance = edits;
    }
  }
  return bestDistance <= 3 ? best : undefined;
}

/**
 * `runner.flow.executor`: which executor runs the agent's model steps. An unknown value is an
 * `AC-VALID-001` problem at its JSON path with the likely intended name; the draft keeps none.
 */
export function readExecutor(
  raw: unknown,
  at: string,
  findings: Findings,
): StepExecutorName | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === "string" && (STEP_EXECUTOR_NAMES as readonly string[]).includes(raw)) {
    return raw as StepExecutorName;
  }
  const guess = typeof raw === "string" ? closestExecutorName(raw) : undefined;
  const choices = STEP_EXECUTOR_NAMES.map((name) => `"${name}"`).join(" or ");
  report(
    findings,
    findings.shapeCode,
    at,
    `${at} must be ${choices}, but is ${describeValue(raw)}.`,
    `${guess === undefined ? "" : `Did you mean "${guess}"? `}Set ${at} to ${choices} ("messages", climpt's own tool loop on the Messages API, is the default; "claude-code" runs each step as a Claude Code session).`,
  );
  return undefined;
}
