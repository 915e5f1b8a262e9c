/**
 * The run the kill loop of `pnpm soak` kills: the built runner in a process of its own, against
 * the fake API the soak serves. argv: <agentDir> <cwd> <baseURL> [<runId to resume>]. Prints the
 * run id as soon as the run has one, then `{"done":…}` when the run ends.
 */

import { loadAgentDefinition, StepFlowRunner } from "@climpt/runner";
import { createAnthropicClient } from "@climpt/sdk-adapter";

const [agentDir, cwd, baseURL, resume] = process.argv.slice(2);
if (agentDir === undefined || cwd === undefined || baseURL === undefined) {
  throw new Error("usage: kill-child <agentDir> <cwd> <baseURL> [<runId>]");
}
const runner = new StepFlowRunner(await loadAgentDefinition(agentDir), {
  modelClient: createAnthropicClient({ apiKey: "sk-soak-key", baseURL, maxRetries: 0 }),
});
runner.on((event) => {
  if (event.type === "run_start" || event.type === "run_resume") {
    process.stdout.write(`${event.runId}\n`);
  }
});
const result = await runner.run({ cwd, ...(resume === undefined ? {} : { resume }) });
process.stdout.write(
  `${JSON.stringify({ done: result.success, code: result.error?.code ?? null })}\n`,
);
