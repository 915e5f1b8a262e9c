/**
 * The mock script `climpt init` writes beside a gate-dialect scaffold (mock.json), so that
 * `climpt run <name> --task … --mock .agent/<name>/mock.json` completes offline right after init:
 * one rule per step, each output valid under the scaffold's schema and naming an intent its gate
 * allows. The work step first calls a read-only tool, to show the shape of a tool turn without
 * changing the tree the git-clean validator checks.
 */
export function gateMockScript(name: string): unknown {
  return {
    description: `Answers for the ${name} agent's steps, for \`climpt run ${name} --mock\` (format: the README of @climpt/mock). Edit the outputs as you change the schema, prompts or intents.`,
    rules: [
      {
        step: "initial.work",
        reply: {
          output: {
            stepId: "initial.work",
            summary: "Read the task and the repository layout.",
            plan: { approach: "List the Markdown files, then report what they cover." },
            next_action: { action: "next", reason: "The plan is clear." },
          },
        },
      },
      {
        step: "continuation.work",
        turns: [
          {
            text: "Looking at the files first.",
            toolCalls: [{ name: "Glob", input: { pattern: "**/*.md" } }],
          },
          {
            output: {
              stepId: "continuation.work",
              summary: "Listed the Markdown files; nothing needed to change.",
              work: {
                description: "No change: the files already say what the task asks.",
                files: [],
              },
              next_action: { action: "handoff", reason: "Nothing is left to do." },
            },
          },
        ],
      },
      {
        step: "closure.done",
        reply: {
          output: {
            stepId: "closure.done",
            summary: "Checked that nothing is left uncommitted.",
            closure: { committed: true, report: "Done: no change was needed." },
            next_action: { action: "closing", reason: "The work is complete." },
          },
        },
      },
    ],
  };
}
