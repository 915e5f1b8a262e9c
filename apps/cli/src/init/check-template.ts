import { createHash } from "node:crypto";
import { checkMockScript } from "./check-mock.ts";
import type { ScaffoldFile } from "./scaffold-file.ts";

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * A check-dialect step id (`s_` + hex), stable per agent name so a re-scaffold gives the same ids.
 */
function stepId(name: string, role: string): string {
  return `s_${createHash("sha256").update(`${name}:${role}`).digest("hex").slice(0, 6)}`;
}

const RESPONSE_FORMAT = { result: "ok|ng", message: "string" };

/**
 * A small check-dialect agent (docs/design.md#the-check-dialect): a work step judged by its own
 * check prompt (retried at most twice), then a review step whose check completes the run (retried
 * at most twice). Every cycle is bounded, so `climpt validate` reports no warning.
 */
export function checkTemplate(name: string, title: string): ScaffoldFile[] {
  const work = stepId(name, "work");
  const review = stepId(name, "review");
  const agent = {
    name,
    displayName: title,
    description: `${title}: does a task, then reviews it; each step is judged by its own check prompt.`,
    parameters: {
      task: {
        type: "string",
        description: "What the agent should do",
        required: true,
        cli: "--task",
      },
    },
    behavior: {
      systemPromptPath: "prompts/system.md",
      completionType: "stepFlow",
      completionConfig: {},
      allowedTools: ["Read", "Write", "Edit", "Bash", "Glob", "Grep"],
      permissionMode: "acceptEdits",
    },
    prompts: { registry: "steps_registry.json", fallbackDir: "prompts/" },
    logging: { directory: `tmp/climpt/logs/${name}`, format: "jsonl" },
  };
  const registry = {
    version: "2.0.0",
    basePath: "prompts",
    entryStep: work,
    steps: {
      [work]: {
        id: work,
        name: "Do the work",
        prompt: { c1: "steps", c2: "phase", c3: "work" },
        iterations: { min: 1, max: 3 },
        check: {
          prompt: { c1: "checks", c2: "step", c3: "work" },
          responseFormat: RESPONSE_FORMAT,
          onPass: { next: review },
          onFail: { retry: true, maxRetries: 2 },
        },
      },
      [review]: {
        id: review,
        name: "Review",
        prompt: { c1: "steps", c2: "phase", c3: "review" },
        iterations: { min: 1, max: 1 },
        check: {
          prompt: { c1: "checks", c2: "completion", c3: "final" },
          responseFormat: RESPONSE_FORMAT,
          onPass: { complete: true },
          onFail: { retry: true, maxRetries: 2 },
        },
      },
    },
  };
  const checkAnswer =
    'Answer with JSON only: `{"result": "ok", "message": "…"}` when it holds, `{"result": "ng", "message": "what is missing"}` when not.';
  return [
    { path: "agent.json", content: json(agent) },
    { path: "steps_registry.json", content: json(registry) },
    { path: "mock.json", content: json(checkMockScript(name, { work, review })) },
    {
      path: "prompts/system.md",
      content: `You are ${title}, an agent working in a git repository through climpt.

Work in small, verifiable steps. Read the code before changing it and run the project's own
checks.
`,
    },
    {
      path: "prompts/steps/phase/work/f_default.md",
      content: `# Do the work

The task: {uv-task}

This is pass {uv-iteration}. Make the change and run the project's checks. Say what you did.
`,
    },
    {
      path: "prompts/steps/phase/review/f_default.md",
      content: `# Review

The task: {uv-task}

Review the change as a careful colleague would: correctness, tests, leftovers. Fix what you find.
`,
    },
    {
      path: "prompts/checks/step/work/f_default.md",
      content: `# Check: is the work done?

The task: {uv-task}

Verify that the change does what the task asks and that the project's checks pass.

${checkAnswer}
`,
    },
    {
      path: "prompts/checks/completion/final/f_default.md",
      content: `# Check: ready to ship?

Verify that the work is complete, reviewed, and that nothing is left over.

${checkAnswer}
`,
    },
  ];
}
