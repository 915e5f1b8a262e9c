/**
 * The label that puts an issue into the starter workflow (its triage phase). Every label of the
 * workflow starts with `climpt:`, which is how the GitHub Actions job tells them from others.
 */
export const STARTER_ENTRY_LABEL = "climpt:triage";

/** The phases' labels, in the order an issue meets them. */
const PHASE_LABELS = {
  "climpt:triage": {
    phase: "triage",
    color: "ededed",
    description: "climpt: waiting for triage (label an issue with this to start)",
  },
  "climpt:implement": {
    phase: "implementing",
    color: "a2eeef",
    description: "climpt: being implemented",
  },
  "climpt:ci": {
    phase: "ci",
    color: "fbca04",
    description: "climpt: the pull request's CI is followed and fixed",
  },
  "climpt:review": { phase: "reviewing", color: "5319e7", description: "climpt: in review" },
  "climpt:done": {
    phase: "done",
    color: "0e8a16",
    description: "climpt: a reviewed pull request is ready for a person",
  },
  "climpt:blocked": {
    phase: "blocked",
    color: "d93f0b",
    description: "climpt: stopped; a person must answer or look",
  },
} as const;

/**
 * `.agent/workflow.json` of the issue-to-pr starter: triage → implementing → ci → reviewing →
 * done, with blocked for every failure. The implementer's work lands as a pull request (pushed by
 * the host, never by the model); the ci phase follows that pull request's checks and runs
 * ci-fixer when one fails; the reviewer sends the work back to implementing or ends at done.
 * The issue is not closed at done: the pull request says `Closes #N`, so merging it closes it.
 */
export function starterWorkflow(): Record<string, unknown> {
  return {
    version: "1.0.0",
    phases: {
      triage: { type: "actionable", priority: 4, agent: "triage" },
      implementing: { type: "actionable", priority: 3, agent: "implement" },
      ci: {
        type: "actionable",
        priority: 2,
        agent: "ci-fixer",
        checks: { timeoutMinutes: 60, pollSeconds: 60, maxFixAttempts: 2 },
      },
      reviewing: { type: "actionable", priority: 1, agent: "review" },
      done: { type: "terminal" },
      blocked: { type: "blocking" },
    },
    labelMapping: Object.fromEntries(
      Object.entries(PHASE_LABELS).map(([label, spec]) => [label, spec.phase]),
    ),
    labels: Object.fromEntries(
      Object.entries(PHASE_LABELS).map(([label, spec]) => [
        label,
        { color: spec.color, description: spec.description },
      ]),
    ),
    agents: {
      triage: {
        role: "validator",
        outputPhases: { ready: "implementing", unclear: "blocked" },
        fallbackPhase: "blocked",
      },
      implement: { role: "transformer", outputPhase: "ci", fallbackPhase: "blocked" },
      "ci-fixer": { role: "transformer", outputPhase: "reviewing", fallbackPhase: "blocked" },
      review: {
        role: "validator",
        outputPhases: { approved: "done", "changes-requested": "implementing" },
        fallbackPhase: "blocked",
      },
    },
    land: { mode: "pull-request" },
    handoff: {
      commentTemplates: {
        triageReady: "## Triaged: ready to implement\n\n{summary}",
        triageUnclear: `## A question before work starts\n\n{question}\n\nAnswer here, then put the label \`${STARTER_ENTRY_LABEL}\` back on the issue.`,
        implementSuccess:
          "## Implemented\n\n{summary}\n\nclimpt opened a pull request from `{branch}` and follows its CI.",
        reviewChangesRequested: "## Changes requested\n\n{findings}",
        reviewApproved:
          "## Approved by climpt's review\n\n{summary}\n\nThe pull request is ready for a person's review and merge.",
      },
    },
    rules: { maxCycles: 12, cycleDelayMs: 0, maxConsecutivePhases: 3 },
  };
}
