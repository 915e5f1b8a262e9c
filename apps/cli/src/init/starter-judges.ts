import { fieldsOutput, gate, json, starterAgentJson } from "./gate-parts.ts";
import type { ScaffoldFile } from "./scaffold-file.ts";

/**
 * A one-step judging agent of the starter set (triage, review): a closure step whose output's
 * `verdict` is the orchestrator's outcome (a validator's `outputPhases` are keyed by it). It
 * reads the repository and GitHub but its job is not to change anything.
 */
function judgeAgent(options: {
  readonly name: string;
  readonly c3: string;
  readonly description: string;
  readonly verdicts: readonly string[];
  readonly fields: Record<string, unknown>;
  readonly required: readonly string[];
  readonly handoff: readonly string[];
  readonly system: string;
  readonly prompt: string;
}): ScaffoldFile[] {
  const { name, c3 } = options;
  const step = `closure.${c3}`;
  const schemaFile = `${name}.schema.json`;
  const registry = {
    agentId: name,
    version: "1.0.0",
    c1: "steps",
    entryStep: step,
    steps: {
      [step]: {
        stepId: step,
        name: options.description,
        stepKind: "closure",
        c2: "closure",
        c3,
        edition: "default",
        uvVariables: ["issue"],
        outputSchemaRef: { file: schemaFile, schema: step },
        structuredGate: gate(["closing"], options.handoff),
        transitions: { closing: { target: null } },
      },
    },
  };
  const schemas = {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: schemaFile,
    description: `Structured output of the ${name} agent.`,
    definitions: {
      [step]: fieldsOutput(
        step,
        {
          verdict: {
            type: "string",
            enum: options.verdicts,
            description: "The outcome; it decides the issue's next phase.",
          },
          ...options.fields,
        },
        ["verdict", ...options.required],
        ["closing"],
      ),
    },
  };
  return [
    {
      path: "agent.json",
      // Bash is for reading (gh issue view, git diff); the prompts say so, and the sandbox keeps
      // it inside the worktree.
      content: json(
        starterAgentJson({
          name,
          description: options.description,
          tools: ["Read", "Bash", "Glob", "Grep"],
        }),
      ),
    },
    { path: "steps_registry.json", content: json(registry) },
    { path: `schemas/${schemaFile}`, content: json(schemas) },
    { path: "prompts/system.md", content: options.system },
    { path: `prompts/steps/closure/${c3}/f_default.md`, content: options.prompt },
  ];
}

/** triage: is the issue clear enough to implement? `ready` → implementing, `unclear` → blocked. */
export function triageAgent(): ScaffoldFile[] {
  return judgeAgent({
    name: "triage",
    c3: "triage",
    description: "Decides whether an issue is clear enough to implement",
    verdicts: ["ready", "unclear"],
    fields: {
      question: {
        type: "string",
        description:
          "With verdict unclear: the question(s) for the issue's author, ready to post. Empty when ready.",
      },
    },
    required: ["question"],
    handoff: ["verdict", "question"],
    system: `You are the triager of this repository's issues, working through climpt. You decide
whether an issue says enough for an engineer to implement it without guessing. You do not change
files. Each step asks for a JSON answer in a fixed shape: answer with exactly that JSON.
`,
    prompt: `# Step: triage issue #{uv-issue}

Read the issue and its comments: \`gh issue view {uv-issue} --comments\`. Look at the code it is
about (Read, Glob, Grep) to judge whether it is clear what to change and how to tell it works.

- The issue says what to change and what "done" looks like, or a reasonable engineer would agree
  on both: \`verdict: "ready"\`, \`question: ""\`.
- It does not (a missing reproduction, two readings that lead to different changes, a decision
  only a person can make): \`verdict: "unclear"\`, and in \`question\` what the author must answer,
  as short and concrete as you can. It is posted on the issue, and the issue waits for a person.

Do not change any file.

Answer with \`summary\`, \`verdict\`, \`question\` and \`next_action.action: "closing"\`.
`,
  });
}

/** review: the pull request's change, judged. `approved` → done, `changes-requested` → implementing. */
export function reviewAgent(): ScaffoldFile[] {
  return judgeAgent({
    name: "review",
    c3: "review",
    description: "Reviews the change made for an issue",
    verdicts: ["approved", "changes-requested"],
    fields: {
      findings: {
        type: "string",
        description:
          "With changes-requested: each thing to change, as a Markdown list (it is posted on the issue). Empty when approved.",
      },
    },
    required: ["findings"],
    handoff: ["verdict"],
    system: `You are a code reviewer of this repository, working through climpt. You review the
change made on this branch for an issue as a careful colleague would. You do not change files:
your findings go back to the implementer. Each step asks for a JSON answer in a fixed shape:
answer with exactly that JSON.
`,
    prompt: `# Step: review the change for issue #{uv-issue}

Read the issue (\`gh issue view {uv-issue} --comments\`) and the change on this branch: the
commits the base branch lacks (\`git log --oneline origin/HEAD..HEAD\`, \`git diff origin/HEAD...HEAD\`;
without a remote, the branch's own commits).

Judge it: does it do what the issue asks, is it tested, is it correct at the edges, is anything
left over (debug output, unrelated edits)? CI has already passed on it.

- Good to merge: \`verdict: "approved"\`, \`findings: ""\`, and a \`summary\` for the person who
  merges.
- Not yet: \`verdict: "changes-requested"\`, and in \`findings\` each change to make as a Markdown
  list, concrete enough to act on. The issue goes back to the implementer with them.

Do not change any file.

Answer with \`summary\`, \`verdict\`, \`findings\` and \`next_action.action: "closing"\`.
`,
  });
}
