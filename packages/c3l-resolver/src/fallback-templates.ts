import { fail, ok, problem, type Result } from "@climpt/model";
import { PROMPT_CODES } from "./problems.ts";

/**
 * The kind of run a fallback template is written for, and so which UV variables the runner
 * supplies when it is used. `project` is the project-based verdict of the original tool; it
 * has no completion type of its own here, its templates only need the `project` parameter.
 */
export type FallbackContext =
  | "count:iteration"
  | "poll:state"
  | "project"
  | "detect:keyword"
  | "detect:structured"
  | "count:check"
  | "none";

/**
 * The UV variables each context guarantees: channel 1 parameters the completion type requires
 * (`issue` for poll:state, `project` for project runs) and the channel 2/3 values the runner
 * always sets for it. A template uses no others, so a fallback never fails with PR-RESOLVE-005.
 */
export const FALLBACK_CONTEXT_VARIABLES: Readonly<Record<FallbackContext, readonly string[]>> = {
  "count:iteration": ["iteration", "max_iterations", "remaining"],
  "poll:state": ["issue", "iteration"],
  project: ["project", "iteration"],
  "detect:keyword": ["completion_keyword", "iteration"],
  "detect:structured": ["iteration"],
  "count:check": ["check_count", "max_checks", "iteration"],
  none: [],
};

export interface FallbackTemplate {
  readonly key: string;
  readonly description: string;
  readonly context: FallbackContext;
  readonly text: string;
}

const CLOSURE_CHECKS = `After you answer, climpt does not take your word for it: it runs the completion checks this agent defines (typically a clean working tree from \`git status --porcelain\`, the tests and the type checks). If one fails, you get a retry prompt that names the failure, and the run goes back to work. Fix what you can find now instead of leaving it for the checks.`;

const CLOSURE_ANSWER = `If everything is done and verified, answer with the intent \`closing\` in your structured output and put the evidence in it: what changed, which commands you ran and what they printed. If something is still missing, answer \`repeat\` and say exactly what remains.`;

const NO_BOUNDARY = `Do not close issues, merge, release or change labels yourself: climpt does that once, after the checks pass.`;

const templates: readonly FallbackTemplate[] = [
  // --- iteration budget (count:iteration) ---------------------------------------------------
  {
    key: "initial_iterate",
    description: "Iteration-based verdict (count:iteration), first iteration",
    context: "count:iteration",
    text: `# Iteration {uv-iteration} of {uv-max_iterations}

You are starting a task that runs for at most {uv-max_iterations} iterations; {uv-remaining} remain. Every iteration is a fresh conversation: whatever the next one needs to know must go into your structured output.

Read the task and the working tree, pick the smallest piece of real progress you can finish in this iteration, and finish it. One completed change is worth more than three started ones.

End by filling in the structured output your schema asks for: what you did, what is left, and the intent that fits (usually \`next\`).
`,
  },
  {
    key: "continuation_iterate",
    description: "Iteration-based verdict (count:iteration), later iterations",
    context: "count:iteration",
    text: `# Iteration {uv-iteration} of {uv-max_iterations}

You are continuing a task with an iteration budget; {uv-remaining} iterations remain. The handoff from earlier steps is all you know about previous work, so check the working tree for the actual state before you change anything.

Finish anything left half done before you start something new, and keep each change small enough to verify within this iteration. When few iterations remain, leave the work consistent and committed rather than ambitious and broken.

Report what you did and what remains in your structured output, and choose the intent that fits.
`,
  },
  // --- issue (poll:state) --------------------------------------------------------------------
  {
    key: "initial_issue",
    description: "Issue polling verdict (poll:state), first step",
    context: "poll:state",
    text: `# Issue #{uv-issue}

Your task is to resolve GitHub issue #{uv-issue}. Read it first, with its comments (for example \`gh issue view {uv-issue} --comments\`), and restate its requirements and acceptance criteria in your own words.

Then look at the code the issue touches, plan the smallest change that satisfies every criterion, and start implementing it. Keep commits focused and the working tree clean.

${NO_BOUNDARY} Put your understanding and your plan in your structured output and choose the intent that fits.
`,
  },
  {
    key: "continuation_issue",
    description: "Issue polling verdict (poll:state), later iterations",
    context: "poll:state",
    text: `# Issue #{uv-issue}, iteration {uv-iteration}

Continue resolving GitHub issue #{uv-issue}. Start from the handoff of the previous step and the current working tree; re-read the issue if you are unsure what is still required.

Work through the remaining acceptance criteria one at a time, running the relevant tests as you go. Commit each finished piece.

${NO_BOUNDARY} When every criterion is met, hand off to the closure step; otherwise report progress and continue.
`,
  },
  {
    key: "initial_issue_label_only",
    description: "Issue label-only variant (poll:state), first step",
    context: "poll:state",
    text: `# Issue #{uv-issue} (label-only)

Your task is to do the work GitHub issue #{uv-issue} asks for. Read it with its comments (\`gh issue view {uv-issue} --comments\`) and restate what a finished result looks like.

When the work is validated, climpt marks the issue by updating its labels and leaves it open for a person to close. Never close the issue or edit its labels yourself.

Plan the smallest change that meets the issue's criteria and begin. Put your understanding and plan in your structured output and choose the intent that fits.
`,
  },
  {
    key: "continuation_issue_label_only",
    description: "Issue label-only variant (poll:state), later iterations",
    context: "poll:state",
    text: `# Issue #{uv-issue} (label-only), iteration {uv-iteration}

Continue the work for GitHub issue #{uv-issue}, starting from the previous step's handoff and the current working tree.

Finish the remaining criteria one at a time and commit each finished piece. The issue stays open when you are done: climpt only updates its labels after validation, so do not close it or touch its labels.

When every criterion is met, hand off to the closure step; otherwise report progress and continue.
`,
  },
  // --- project ---------------------------------------------------------------------------------
  {
    key: "initial_project",
    description: "Project-based verdict, first step",
    context: "project",
    text: `# Project {uv-project}

You are working through GitHub project {uv-project}. Start by listing its open items and their status (for example with \`gh project item-list\`), and decide which item to take first and why.

A project run moves through preparation (understand and plan), processing (implement) and review (verify). Begin with preparation: gather what the first item needs and write down a plan.

Put the chosen item and your plan in your structured output and choose the intent that fits.
`,
  },
  {
    key: "continuation_project",
    description: "Project-based verdict, later iterations",
    context: "project",
    text: `# Project {uv-project}, iteration {uv-iteration}

Continue working on GitHub project {uv-project}. The previous step's handoff tells you which item and phase you are in; confirm it against the working tree and the project board.

Make concrete progress on the current item, commit what you finish, and move to the next phase only when the current one is really done.

Report the item, the phase and what changed in your structured output, and choose the intent that fits.
`,
  },
  {
    key: "continuation_project_preparation",
    description: "Project preparation phase",
    context: "project",
    text: `# Project {uv-project}: preparation (iteration {uv-iteration})

You are in the preparation phase of project {uv-project}. Clarify the requirements of the current item, find the code and documents it touches, and settle open questions before writing code.

Finish with a plan another engineer could follow: the files to change, the order, and how each change will be verified.

Put the plan in your structured output. Move on to processing when the plan is complete; repeat this phase if it is not.
`,
  },
  {
    key: "continuation_project_processing",
    description: "Project processing phase",
    context: "project",
    text: `# Project {uv-project}: processing (iteration {uv-iteration})

You are in the processing phase of project {uv-project}: implement the plan from the preparation phase, one step at a time.

After each step run the checks that cover it (tests, type check, lint) and commit when they pass. If the plan turns out to be wrong, say so in your output rather than improvising silently.

Report what you implemented and what remains. Move on to review when the plan is fully implemented.
`,
  },
  {
    key: "continuation_project_review",
    description: "Project review phase",
    context: "project",
    text: `# Project {uv-project}: review (iteration {uv-iteration})

You are in the review phase of project {uv-project}. Read the changes made for the current item as a reviewer would: do they meet its requirements, are they tested, is anything left half done?

Run the full test suite and the type check. Fix small problems directly; describe larger ones precisely so the next step can address them.

Report your findings in your structured output. Hand off to closure when the item is ready; otherwise go back to processing.
`,
  },
  // --- keyword (detect:keyword) -----------------------------------------------------------------
  {
    key: "initial_keyword",
    description: "Keyword detection verdict (detect:keyword), first step",
    context: "detect:keyword",
    text: `# Task start (iteration {uv-iteration})

Work on the task you were given until it is completely done. This run ends when your answer contains the completion keyword \`{uv-completion_keyword}\`.

Write that keyword only when the work is finished and verified, never to describe a plan or a partial result: the keyword alone decides that the run is over.

Start by restating the goal and making the first concrete piece of progress. Report what you did in your structured output.
`,
  },
  {
    key: "continuation_keyword",
    description: "Keyword detection verdict (detect:keyword), later iterations",
    context: "detect:keyword",
    text: `# Continuing (iteration {uv-iteration})

Continue the task from where the previous step left off; its handoff and the working tree tell you where that is.

When, and only when, the task is completely done and verified, include the completion keyword \`{uv-completion_keyword}\` in your answer. Until then, keep making concrete progress and leave the keyword out.

Report what you did this iteration and what remains in your structured output.
`,
  },
  {
    key: "initial_manual",
    description: "Manual mode (alias for keyword), first step",
    context: "detect:keyword",
    text: `# Session start (iteration {uv-iteration})

This is a manually steered session: you work on the topic you were given, step by step, and the session ends when you write the keyword \`{uv-completion_keyword}\`.

Begin by restating the topic and what a good outcome would be, then take the first step. Keep each answer focused so the session stays easy to follow.

Write \`{uv-completion_keyword}\` only when the outcome is reached. Report your progress in your structured output.
`,
  },
  {
    key: "continuation_manual",
    description: "Manual mode (alias for keyword), later iterations",
    context: "detect:keyword",
    text: `# Session, iteration {uv-iteration}

Continue the session from the previous step's handoff. Build on what is already done instead of starting over.

When the outcome you described at the start is reached, write \`{uv-completion_keyword}\` to end the session; until then, leave it out.

Report what changed this iteration in your structured output.
`,
  },
  // --- structured signal (detect:structured) --------------------------------------------------
  {
    key: "initial_structured_signal",
    description: "Structured signal verdict (detect:structured), first step",
    context: "detect:structured",
    text: `# Task start (iteration {uv-iteration})

Work on the task you were given. This run ends when your structured output carries the completion signal that your output schema describes, with every required field filled in.

Emit that signal only once the work is finished and checked, and fill its fields with real evidence (what changed, which checks passed), never with placeholders.

Start by restating the goal and making the first concrete piece of progress.
`,
  },
  {
    key: "continuation_structured_signal",
    description: "Structured signal verdict (detect:structured), later iterations",
    context: "detect:structured",
    text: `# Continuing (iteration {uv-iteration})

Continue the task from the previous step's handoff and the current working tree.

When the work is finished and verified, emit the completion signal your output schema describes, with every required field filled in from real results. Until then, leave the signal out and report your progress instead.
`,
  },
  // --- closure ------------------------------------------------------------------------------------
  {
    key: "issue_closure_default",
    description: "Issue completion",
    context: "poll:state",
    text: `# Closing issue #{uv-issue}

The work on GitHub issue #{uv-issue} is believed to be done. Check that yourself before you say so: re-read the issue's acceptance criteria and confirm each one, run the tests and the type check, and make sure every change is committed.

${CLOSURE_CHECKS}

${CLOSURE_ANSWER} ${NO_BOUNDARY}
`,
  },
  {
    key: "project_closure_default",
    description: "Project completion",
    context: "project",
    text: `# Closing project {uv-project}

The work on project {uv-project} is believed to be done. Confirm every item you worked on meets its requirements, the full test suite and type check pass, and nothing is left uncommitted.

${CLOSURE_CHECKS}

${CLOSURE_ANSWER} ${NO_BOUNDARY}
`,
  },
  {
    key: "polling_closure_default",
    description: "Generic polling completion",
    context: "none",
    text: `# Closing

The external state this agent watches is believed to have reached its goal. Confirm it directly (query the issue, check, or service) instead of relying on earlier output, and make sure your own changes are committed.

${CLOSURE_CHECKS}

${CLOSURE_ANSWER} ${NO_BOUNDARY}
`,
  },
  {
    key: "review_closure_default",
    description: "Review completion",
    context: "none",
    text: `# Closing the review

The review is believed to be complete. Make sure every finding is written down with its file and line, each one says whether it blocks, and anything you fixed yourself is committed.

${CLOSURE_CHECKS}

${CLOSURE_ANSWER} ${NO_BOUNDARY}
`,
  },
  {
    key: "iteration_closure_default",
    description: "Iteration budget exhausted",
    context: "count:iteration",
    text: `# Closing after iteration {uv-iteration} of {uv-max_iterations}

The iteration budget is used up ({uv-remaining} remain), so this run is ending. Leave the work in a state someone else can pick up: commit what is finished, revert or clearly mark what is not, and make sure the tests that passed before still pass.

${CLOSURE_CHECKS}

${CLOSURE_ANSWER} Summarise what was done and what remains, so the next run can start from it. ${NO_BOUNDARY}
`,
  },
  {
    key: "facilitation_closure_default",
    description: "Facilitation completion",
    context: "none",
    text: `# Closing the facilitation

The discussion you facilitated is believed to be finished. Write down its outcome: the decisions taken, who owns each follow-up, and the questions still open.

${CLOSURE_CHECKS}

${CLOSURE_ANSWER} ${NO_BOUNDARY}
`,
  },
  {
    key: "project_continuation_closure_default",
    description: "Project continuation completion",
    context: "project",
    text: `# Closing the current item of project {uv-project}

The current item of project {uv-project} is believed to be done, and the project continues after it. Confirm the item meets its requirements, its tests pass and its changes are committed, and note which item should come next.

${CLOSURE_CHECKS}

${CLOSURE_ANSWER} ${NO_BOUNDARY}
`,
  },
  {
    key: "statuscheck_continuation_default",
    description: "Status check continuation",
    context: "count:check",
    text: `# Status check {uv-check_count} of {uv-max_checks} (iteration {uv-iteration})

Check the current status of what this agent is watching and report it factually: what you looked at, what it showed, and whether it changed since the last check.

Do not start new work from a status check, and do not guess: if the status cannot be determined, say why. After {uv-max_checks} checks the run ends whatever the status is.

Put the status and its evidence in your structured output and choose the intent that fits.
`,
  },
  // --- system -------------------------------------------------------------------------------------
  {
    key: "system",
    description: "Default system prompt",
    context: "none",
    text: `You are an autonomous software engineering agent run by climpt. Each step of the run gives you one focused task; do that task well and report on it.

Work from facts: read files and run commands to find out how things are rather than assuming. Keep changes small, make sure they build and pass their tests, and commit finished work.

Always answer in the structured output format you are given. Its intent field is how you move the run forward, so choose it honestly: do not claim a step is finished when it is not.

Side effects outside the working tree (closing issues, merging, releasing, changing labels) are not yours to perform; climpt does them after the work has been validated.
`,
  },
];

/** Every built-in template, by key. */
export const FALLBACK_TEMPLATES: Readonly<Record<string, FallbackTemplate>> = Object.freeze(
  Object.fromEntries(templates.map((template) => [template.key, template])),
);

/**
 * Other names accepted for a template. The original design's own step example uses
 * `issue_initial_default`, so an agent copied from it works unchanged.
 */
export const FALLBACK_KEY_ALIASES: Readonly<Record<string, string>> = {
  issue_initial_default: "initial_issue",
};

export const FALLBACK_KEYS: readonly string[] = templates.map((template) => template.key);

/** The built-in template for `key`, or the PR-C3L-005 problem with the exact seed-003 message. */
export function fallbackTemplate(
  key: string,
  stepId?: string,
  where: { readonly file?: string | undefined; readonly path?: string | undefined } = {},
): Result<FallbackTemplate> {
  // Own entries only: a key such as `toString` must be unknown, not Object.prototype's.
  const name = Object.hasOwn(FALLBACK_KEY_ALIASES, key) ? FALLBACK_KEY_ALIASES[key] : key;
  const template =
    name !== undefined && Object.hasOwn(FALLBACK_TEMPLATES, name)
      ? FALLBACK_TEMPLATES[name]
      : undefined;
  if (template) return ok(template);
  const dotted = key.includes(".");
  return fail([
    problem(
      PROMPT_CODES.unknownFallbackKey,
      `No fallback prompt found for key: "${key}" (step: ${stepId ?? "unknown"})`,
      {
        ...where,
        hint: dotted
          ? `fallbackKey uses underscores, not dots: try "${key.replaceAll(".", "_")}". Known keys: ${FALLBACK_KEYS.join(", ")}.`
          : `Use one of: ${FALLBACK_KEYS.join(", ")}; or create the step's prompt file.`,
      },
    ),
  ]);
}
