import { jsonPath } from "@climpt/model";
import { ORCHESTRATOR_CODES as C } from "../codes.ts";
import { unknownFields } from "../read-fields.ts";
import { DEFAULT_PHASE_CHECKS, type PhaseChecks, type Workflow } from "../workflow-model.ts";
import { describeType, isRecord, type ProblemList } from "../workflow-problems.ts";

const CHECKS_FIELDS = ["timeoutMinutes", "pollSeconds", "maxFixAttempts"];

/**
 * A phase's `checks` (the phase follows the pull request of the branch until its checks
 * pass): absent → null; `{}` or `true` → the defaults; each field checked on its own so every
 * bad value is reported at once.
 */
export function readPhaseChecks(
  problems: ProblemList,
  raw: unknown,
  phasePath: string,
): PhaseChecks | null {
  if (raw === undefined || raw === false) return null;
  const path = jsonPath(phasePath, "checks");
  if (raw === true) return DEFAULT_PHASE_CHECKS;
  if (!isRecord(raw)) {
    problems.error(
      C.checksShape,
      path,
      `${path} must be an object, not ${describeType(raw)}.`,
      'Write "checks": { "timeoutMinutes": 60, "pollSeconds": 60, "maxFixAttempts": 2 } (every field optional).',
    );
    return null;
  }
  unknownFields(problems, raw, CHECKS_FIELDS, path);
  const checks = { ...DEFAULT_PHASE_CHECKS };
  const positive = (key: "timeoutMinutes" | "pollSeconds", unit: string): void => {
    const value = raw[key];
    if (value === undefined) return;
    if (typeof value === "number" && Number.isFinite(value) && value > 0) checks[key] = value;
    else
      problems.error(
        C.checksShape,
        jsonPath(path, key),
        `${jsonPath(path, key)} must be a number of ${unit} greater than 0, got ${JSON.stringify(value)}.`,
        `Leave it out for the default (${DEFAULT_PHASE_CHECKS[key]}), or give a positive number.`,
      );
  };
  positive("timeoutMinutes", "minutes");
  positive("pollSeconds", "seconds");
  const attempts = raw.maxFixAttempts;
  if (attempts !== undefined) {
    if (Number.isInteger(attempts) && (attempts as number) >= 0)
      checks.maxFixAttempts = attempts as number;
    else
      problems.error(
        C.checksShape,
        jsonPath(path, "maxFixAttempts"),
        `${jsonPath(path, "maxFixAttempts")} must be an integer of at least 0, got ${JSON.stringify(attempts)}.`,
        "0: a red check blocks the issue at once; n: the fix agent runs up to n times.",
      );
  }
  return checks;
}

/**
 * A `checks` phase's references: it must be actionable (its agent is the fix agent) and that
 * agent a transformer (its success is "checks passed" → `outputPhase`; a validator's verdicts
 * have no meaning while the issue waits on CI).
 */
export function checkChecksPhases(problems: ProblemList, workflow: Workflow): void {
  for (const phase of workflow.phases) {
    if (phase.checks === null) continue;
    const path = jsonPath(jsonPath("$.phases", phase.id), "checks");
    if (phase.type !== "actionable") {
      problems.error(
        C.checksShape,
        path,
        `Phase "${phase.id}" is ${phase.type}, so it cannot follow a pull request's checks: no agent works in it.`,
        'Remove "checks", or make the phase actionable with a fix agent.',
      );
      continue;
    }
    const agent = workflow.agents.find((candidate) => candidate.id === phase.agent);
    if (agent !== undefined && agent.role !== "transformer") {
      problems.error(
        C.checksAgentRole,
        jsonPath(jsonPath("$.phases", phase.id), "agent"),
        `Phase "${phase.id}" follows a pull request's checks, but its agent "${agent.id}" is a ${agent.role}: the fix agent of a checks phase must be a transformer (passing checks lead to its outputPhase).`,
        `Give the phase a transformer agent that fixes failing checks (it receives the arguments failedChecks, checkLogs and pullRequest), or remove "checks".`,
      );
    }
  }
}
