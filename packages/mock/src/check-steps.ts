import { closestMatch, type Problem, problem } from "@climpt/model";
import { MOCK_CODES } from "./codes.ts";
import type { MockScript } from "./mock-script.ts";

/**
 * Rules that name a step the agent does not have (AC-MOCK-005, warnings): such a rule can never
 * answer, and the run would only find out at that step. Checked before a run, with the agent's
 * step ids; a did-you-mean when one is close.
 */
export function unknownStepProblems(
  script: MockScript,
  agentName: string,
  stepIds: readonly string[],
): Problem[] {
  const known = new Set(stepIds);
  const problems: Problem[] = [];
  for (const rule of script.rules) {
    if (rule.step === undefined || known.has(rule.step)) continue;
    const near = closestMatch(rule.step, stepIds);
    problems.push(
      problem(
        MOCK_CODES.unknownStep,
        `${rule.path} names step "${rule.step}", which ${agentName} does not have${near === undefined ? "" : `; did you mean "${near}"?`}`,
        {
          severity: "warning",
          file: script.file,
          path: `${rule.path}.step`,
          hint:
            near === undefined
              ? `Use one of its steps (${stepIds.join(", ")}), or remove the rule.`
              : `Write "${near}", or remove the rule.`,
        },
      ),
    );
  }
  return problems;
}
