/**
 * The mock script `climpt init --dialect check` writes beside its scaffold (mock.json): each step
 * answers its work prompt with text, and its check prompt (the same step id; the rule tells the
 * two apart by the check prompt's heading) with a passing `{result, message}`, so a run with
 * `--mock` completes offline right after init. Rules are tried in order: the check rules first.
 */
export function checkMockScript(
  name: string,
  ids: { readonly work: string; readonly review: string },
): unknown {
  return {
    description: `Answers for the ${name} agent's steps and checks, for \`climpt run ${name} --mock\` (format: the README of @climpt/mock). Edit them as you change the prompts; answer a check with "result": "ng" to see its retry.`,
    rules: [
      {
        name: "work check",
        step: ids.work,
        prompt: "# Check: is the work done?",
        reply: { output: { result: "ok", message: "The change does what the task asks." } },
      },
      {
        name: "work",
        step: ids.work,
        reply: { text: "Read the task; nothing needed to change, and the checks pass." },
      },
      {
        name: "final check",
        step: ids.review,
        prompt: "# Check: ready to ship?",
        reply: {
          output: { result: "ok", message: "Complete and reviewed; nothing is left over." },
        },
      },
      {
        name: "review",
        step: ids.review,
        reply: { text: "Reviewed the change: correct, tested, no leftovers." },
      },
    ],
  };
}
