/**
 * The mock scripts (`mock.json`, format: @climpt/mock's README) of the issue-to-pr starter's
 * agents, so each runs offline right after init: `climpt run <agent> --issue 1 --mock
 * .agent/<agent>/mock.json`. Each rule answers one step, valid under the step's schema, with an
 * intent its gate allows. Their tool calls only read (Glob), so a run leaves the tree as it was
 * and the code-changing agents' completion chains run the repository's real checks on it.
 */

const glance = { name: "Glob", input: { pattern: "*" } };

function script(agent: string, rules: readonly unknown[]): unknown {
  return {
    description: `Answers for the ${agent} agent's steps, for \`climpt run ${agent} --issue 1 --mock .agent/${agent}/mock.json\`. Edit them as you change the prompts and schemas.`,
    rules,
  };
}

export function triageMock(): unknown {
  return script("triage", [
    {
      step: "closure.triage",
      turns: [
        { text: "Looking at the repository first.", toolCalls: [glance] },
        {
          output: {
            stepId: "closure.triage",
            summary: "The issue says what to change and how to tell it works.",
            verdict: "ready",
            question: "",
            next_action: { action: "closing", reason: "Triaged." },
          },
        },
      ],
    },
  ]);
}

/** implement and ci-fixer: a work step that hands off, a closure that closes. */
function changeMock(agent: string, c3: string, what: string): unknown {
  return script(agent, [
    {
      step: `initial.${c3}`,
      turns: [
        { text: "Reading the repository.", toolCalls: [glance] },
        {
          output: {
            stepId: `initial.${c3}`,
            summary: what,
            work: { description: what, files: [] },
            next_action: { action: "handoff", reason: "Nothing is left to change." },
          },
        },
      ],
    },
    {
      step: `closure.${c3}`,
      reply: {
        output: {
          stepId: `closure.${c3}`,
          summary: "Everything is committed and the checks pass.",
          closure: { committed: true, report: what },
          next_action: { action: "closing", reason: "The work is complete." },
        },
      },
    },
  ]);
}

export function implementMock(): unknown {
  return changeMock(
    "implement",
    "implement",
    "Read the issue and the code; no change was needed (a mock answer).",
  );
}

export function ciFixerMock(): unknown {
  return changeMock(
    "ci-fixer",
    "ci",
    "Read the failing check's log; the cause was already fixed (a mock answer).",
  );
}

export function reviewMock(): unknown {
  return script("review", [
    {
      step: "closure.review",
      turns: [
        { text: "Reading the change.", toolCalls: [glance] },
        {
          output: {
            stepId: "closure.review",
            summary: "The change does what the issue asks and is tested.",
            verdict: "approved",
            findings: "",
            next_action: { action: "closing", reason: "Reviewed." },
          },
        },
      ],
    },
  ]);
}
