import type { RepositoryCheck } from "./detect-checks.ts";
import { gate, json, starterAgentJson, stepOutput } from "./gate-parts.ts";
import type { ScaffoldFile } from "./scaffold-file.ts";
import { checksList, completionChain, retryPrompts } from "./starter-checks.ts";

/** What the work step answers: its change, fit for a commit message, and the files. */
const WORK_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["description", "files"],
  properties: {
    description: {
      type: "string",
      description: "What you changed and why, fit for a commit message.",
    },
    files: { type: "array", items: { type: "string" } },
  },
};

const CLOSURE_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["committed", "report"],
  properties: {
    committed: { type: "boolean", description: "Whether every change is committed." },
    report: {
      type: "string",
      description: "What the pull request does, for the person who reviews it.",
    },
  },
};

/**
 * A code-changing agent of the starter set: a work step that hands off to a closure step whose
 * completion chain runs the repository's checks (the shape implement and ci-fixer share).
 */
function codeChangingAgent(options: {
  readonly name: string;
  readonly c3: string;
  readonly description: string;
  readonly checks: readonly RepositoryCheck[];
  readonly parameters?: Record<string, unknown>;
  readonly uvVariables: readonly string[];
  readonly system: string;
  readonly workPrompt: string;
  readonly closurePrompt: string;
}): ScaffoldFile[] {
  const { name, c3, checks } = options;
  const work = `initial.${c3}`;
  const closure = `closure.${c3}`;
  const schemaFile = `${name}.schema.json`;
  const chain = completionChain(closure, c3, checks);
  const registry = {
    agentId: name,
    version: "1.0.0",
    c1: "steps",
    entryStep: work,
    steps: {
      [work]: {
        stepId: work,
        name: "Make the change",
        stepKind: "work",
        c2: "initial",
        c3,
        edition: "default",
        uvVariables: options.uvVariables,
        outputSchemaRef: { file: schemaFile, schema: work },
        structuredGate: gate(["handoff"], ["work.description"]),
        transitions: { handoff: { target: closure } },
      },
      [closure]: {
        stepId: closure,
        name: "Finish: committed and checked",
        stepKind: "closure",
        c2: "closure",
        c3,
        edition: "default",
        uvVariables: ["issue", `initial_${c3}_description`],
        outputSchemaRef: { file: schemaFile, schema: closure },
        structuredGate: gate(["closing"], ["closure.report"]),
        transitions: { closing: { target: null } },
      },
    },
    ...chain,
  };
  const schemas = {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: schemaFile,
    description: `Structured outputs of the ${name} agent's steps.`,
    definitions: {
      [work]: stepOutput(work, { work: WORK_SCHEMA }, ["handoff"]),
      [closure]: stepOutput(closure, { closure: CLOSURE_SCHEMA }, ["closing"]),
    },
  };
  const answer =
    'Answer with `summary`, `work.description`, `work.files` and `next_action.action: "handoff"`.';
  return [
    {
      path: "agent.json",
      content: json(
        starterAgentJson({
          name,
          description: options.description,
          tools: ["Read", "Write", "Edit", "Bash", "Glob", "Grep"],
          ...(options.parameters === undefined ? {} : { parameters: options.parameters }),
        }),
      ),
    },
    { path: "steps_registry.json", content: json(registry) },
    { path: `schemas/${schemaFile}`, content: json(schemas) },
    { path: "prompts/system.md", content: options.system },
    {
      path: `prompts/steps/initial/${c3}/f_default.md`,
      content: `${options.workPrompt}
Before you hand off, run the repository's checks and make them pass:
${checksList(checks)}

Commit your change (\`git add -A && git commit -m "…"\`) with a message that says what and why.

${answer}
`,
    },
    {
      path: `prompts/steps/closure/${c3}/f_default.md`,
      content: `${options.closurePrompt}
After you answer, climpt checks it for real: \`git status --porcelain\` must print nothing and
each of these must exit 0:
${checksList(checks)}
If one does not, the work comes back to you with its output.

Answer with \`summary\`, \`closure.committed\`, \`closure.report\` and
\`next_action.action: "closing"\`.
`,
    },
    ...retryPrompts(c3, checks, answer),
  ];
}

const SYSTEM = `You are a careful software engineer working on a GitHub issue in this repository,
through climpt. The repository is checked out on the issue's own branch; climpt opens the pull
request from it after you finish.

Read the code before you change it. Keep the change to what the issue asks. Run the repository's
own checks and commit your work. Use \`gh issue view <n> --comments\` to read the issue and the
discussion on it. Each step asks for a JSON answer in a fixed shape: answer with exactly that JSON.
`;

/** implement: the issue → a committed change whose checks pass (the orchestrator opens the PR). */
export function implementAgent(checks: readonly RepositoryCheck[]): ScaffoldFile[] {
  return codeChangingAgent({
    name: "implement",
    c3: "implement",
    description:
      "Implements an issue on its branch; finishes only when the change is committed and the repository's tests, type check and lint pass.",
    checks,
    uvVariables: ["issue"],
    system: SYSTEM,
    workPrompt: `# Step: implement issue #{uv-issue}

Read the issue and its comments: \`gh issue view {uv-issue} --comments\`. When a review asked for
changes (a "Changes requested" comment), this pass is about those: address each point.

Find the code the issue is about, make the change, and add or update tests for it.
`,
    closurePrompt: `# Step: finish issue #{uv-issue}

What was done: {uv-initial_implement_description}

Make sure the work is complete and committed.
`,
  });
}

/**
 * ci-fixer: the agent of the `ci` phase. The orchestrator runs it when the pull request's checks
 * fail, with the failing checks' names and a trimmed excerpt of their logs as arguments.
 */
export function ciFixerAgent(checks: readonly RepositoryCheck[]): ScaffoldFile[] {
  return codeChangingAgent({
    name: "ci-fixer",
    c3: "ci",
    description:
      "Fixes a pull request whose CI checks failed, from the failing checks' logs; finishes only when the fix is committed and the repository's checks pass.",
    checks,
    // The names and meaning of these three are the orchestrator's (its README, "Following a pull
    // request's checks"): it passes them to the fix agent of a `checks` phase.
    parameters: {
      failedChecks: {
        type: "string",
        description: "The names of the pull request's failing checks, one per line",
        required: false,
        default: "",
        cli: "--failed-checks",
      },
      checkLogs: {
        type: "string",
        description: "The tail of each failing check's log (secrets scrubbed)",
        required: false,
        default: "",
        cli: "--check-logs",
      },
      pullRequest: {
        type: "string",
        description: "The pull request's URL",
        required: false,
        default: "",
        cli: "--pull-request",
      },
    },
    uvVariables: ["issue", "failedChecks", "checkLogs", "pullRequest"],
    system: SYSTEM,
    workPrompt: `# Step: the pull request's CI failed (issue #{uv-issue})

The pull request: {uv-pullRequest}
These checks failed:
{uv-failedChecks}

The end of their logs:

\`\`\`
{uv-checkLogs}
\`\`\`

Find the cause in the code and fix it (not the check or its workflow file). When the log is not
enough, run the same command locally.
`,
    closurePrompt: `# Step: finish the CI fix (issue #{uv-issue})

What was fixed: {uv-initial_ci_description}

Make sure the fix is complete and committed; climpt pushes it and waits for CI again.
`,
  });
}
