import { gateMockScript } from "./gate-mock.ts";
import { gate, json, stepOutput } from "./gate-parts.ts";
import type { ScaffoldFile } from "./scaffold-file.ts";

/**
 * A small gate-dialect agent (docs/design.md#two-dialects-one-model): initial.work →
 * continuation.work → closure.done, where `closing` only ends the run when `git status --porcelain`
 * is empty; otherwise the git-dirty retry prompt sends the work back to continuation.work, at most
 * 3 times. Every cycle is bounded, so `climpt validate` reports no warning.
 */
export function gateTemplate(name: string, title: string): ScaffoldFile[] {
  const schemaFile = `${name}.schema.json`;
  const agent = {
    name,
    displayName: title,
    description: `${title}: plans a task, does it, and finishes only when every change is committed.`,
    version: "0.1.0",
    parameters: {
      task: {
        type: "string",
        description: "What the agent should do",
        required: true,
        cli: "--task",
      },
    },
    runner: {
      flow: {
        systemPromptPath: "prompts/system.md",
        prompts: { registry: "steps_registry.json" },
        defaultModel: "sonnet",
      },
      verdict: { type: "detect:graph", config: {} },
      boundaries: {
        allowedTools: ["Read", "Write", "Edit", "Bash", "Glob", "Grep"],
        permissionMode: "acceptEdits",
      },
      integrations: { github: { enabled: false } },
      logging: { directory: `tmp/climpt/logs/${name}`, format: "jsonl" },
    },
  };

  const registry = {
    agentId: name,
    version: "1.0.0",
    c1: "steps",
    entryStep: "initial.work",
    steps: {
      "initial.work": {
        stepId: "initial.work",
        name: "Plan the work",
        stepKind: "work",
        c2: "initial",
        c3: "work",
        edition: "default",
        uvVariables: ["task"],
        outputSchemaRef: { file: schemaFile, schema: "initial.work" },
        structuredGate: gate(["next"], ["plan.approach"]),
        transitions: { next: { target: "continuation.work" } },
      },
      "continuation.work": {
        stepId: "continuation.work",
        name: "Do the work",
        stepKind: "work",
        c2: "continuation",
        c3: "work",
        edition: "default",
        uvVariables: ["task", "initial_work_approach"],
        outputSchemaRef: { file: schemaFile, schema: "continuation.work" },
        structuredGate: gate(["handoff"], ["work.description"]),
        transitions: { handoff: { target: "closure.done" } },
      },
      "closure.done": {
        stepId: "closure.done",
        name: "Finish",
        stepKind: "closure",
        c2: "closure",
        c3: "done",
        edition: "default",
        uvVariables: ["task", "continuation_work_description"],
        outputSchemaRef: { file: schemaFile, schema: "closure.done" },
        structuredGate: gate(["closing"], ["closure.report"]),
        transitions: { closing: { target: null } },
      },
    },
    validators: {
      "git-clean": {
        type: "command",
        command: "git status --porcelain",
        successWhen: "empty",
        failurePattern: "git-dirty",
        // Every path once: parseChangedFiles already holds the untracked ones.
        extractParams: { changedFiles: "parseChangedFiles" },
      },
    },
    failurePatterns: {
      "git-dirty": {
        description: "Uncommitted changes are present",
        edition: "failed",
        adaptation: "git-dirty",
        params: ["changedFiles"],
      },
    },
    validationSteps: {
      "closure.done": {
        stepId: "closure.done",
        name: "Everything committed",
        c2: "retry",
        c3: "done",
        validationConditions: [{ validator: "git-clean" }],
        onFailure: { action: "retry", maxAttempts: 3 },
      },
    },
  };

  const schemas = {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: schemaFile,
    description: `Structured outputs of the ${name} agent's steps.`,
    definitions: {
      "initial.work": stepOutput(
        "initial.work",
        {
          plan: {
            type: "object",
            additionalProperties: false,
            required: ["approach"],
            properties: {
              approach: {
                type: "string",
                description: "The change you will make and how you will check it.",
              },
            },
          },
        },
        ["next"],
      ),
      "continuation.work": stepOutput(
        "continuation.work",
        {
          work: {
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
          },
        },
        ["handoff"],
      ),
      "closure.done": stepOutput(
        "closure.done",
        {
          closure: {
            type: "object",
            additionalProperties: false,
            required: ["committed", "report"],
            properties: {
              committed: { type: "boolean", description: "Whether every change is committed." },
              report: { type: "string", description: "The final report for the person who asked." },
            },
          },
        },
        ["closing"],
      ),
    },
  };

  return [
    { path: "agent.json", content: json(agent) },
    { path: "steps_registry.json", content: json(registry) },
    { path: `schemas/${schemaFile}`, content: json(schemas) },
    { path: "mock.json", content: json(gateMockScript(name)) },
    {
      path: "prompts/system.md",
      content: `You are ${title}, an agent working in a git repository through climpt.

Work in small, verifiable steps. Use the tools to read the code before changing it, run the
project's own checks, and commit what you change. Each step asks for a JSON answer in a fixed
shape: answer with exactly that JSON.
`,
    },
    {
      path: "prompts/steps/initial/work/f_default.md",
      content: `# Step: plan the work

The task: {uv-task}

Read the relevant code and decide how to do it. Do not change files yet.

Answer with \`summary\`, \`plan.approach\` (the change you will make and how you will check it)
and \`next_action.action: "next"\`.
`,
    },
    {
      path: "prompts/steps/continuation/work/f_default.md",
      content: `# Step: do the work

The task: {uv-task}
Your plan: {uv-initial_work_approach}

Make the change, run the project's checks, and commit it with a message that says what and why
(\`git add -A && git commit -m "…"\`).

Answer with \`summary\`, \`work.description\`, \`work.files\` and \`next_action.action: "handoff"\`.
`,
    },
    {
      path: "prompts/steps/closure/done/f_default.md",
      content: `# Step: finish

The task: {uv-task}
What was done: {uv-continuation_work_description}

Make sure the work is complete and committed. After you answer, climpt checks it for real:
\`git status --porcelain\` must print nothing. If it does not, the work comes back to you.

Answer with \`summary\`, \`closure.committed\`, \`closure.report\` and
\`next_action.action: "closing"\`.
`,
    },
    {
      path: "prompts/steps/retry/done/f_failed_git-dirty.md",
      content: `# Step: commit your work

The task: {uv-task}

Finishing was refused: \`git status --porcelain\` is not empty, so the work is not committed.

{{#if changedFiles}}Not committed (changed or new):
{{#each changedFiles}}- {{this}}
{{/each}}{{/if}}
Check that these files hold the intended change (\`git diff\`), then commit them, or remove what
should not be there. Never commit a dependency or build folder (node_modules/, dist/, build/,
.venv/, target/, …; they are not listed above): if \`git status --porcelain\` shows one, add it
to \`.gitignore\` and commit that. Run \`git status --porcelain\` to confirm it prints nothing.

Answer with \`summary\`, \`work.description\`, \`work.files\` and \`next_action.action: "handoff"\`.
`,
    },
    {
      path: "prompts/steps/retry/done/f_failed.md",
      content: `# Step: finish the work

The task: {uv-task}

Finishing was refused: a check failed. Fix what it reports, commit, and hand off again.

Answer with \`summary\`, \`work.description\`, \`work.files\` and \`next_action.action: "handoff"\`.
`,
    },
  ];
}
