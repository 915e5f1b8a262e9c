import type { RunningMock } from "@climpt/mock";
import type { LoadedAgent, Problem } from "@climpt/model";
import type { ModelClient } from "@climpt/sdk-adapter";
import type { CliIo } from "../cli-io.ts";
import { displayPath, formatProblemsByFile } from "../report-problems.ts";

export type MockForRun =
  | { readonly ok: true; readonly mock: RunningMock; readonly client: ModelClient }
  | { readonly ok: false; readonly problems: readonly Problem[] };

/**
 * `--mock SCRIPT` of `climpt run` / `resume`: the script checked (a bad one is a usage error,
 * exit 2, before anything runs), served on a free loopback port for this run only, and the
 * run's model client pointed at it through the real SDK. The key is a placeholder: the mock
 * reads none, and the user's own key is never sent to it.
 */
export async function startMockForRun(
  file: string,
  io: CliIo,
  loaded: LoadedAgent,
): Promise<MockForRun> {
  // Loaded on use, like the runner: a run without --mock never reads them.
  const { loadMockScript, startMock, unknownStepProblems } = await import("@climpt/mock");
  const script = await loadMockScript(file);
  if (!script.ok) return { ok: false, problems: script.issues };
  // A rule for a step the agent lacks would only show at that step: say so before the run.
  const warnings = unknownStepProblems(
    script.value,
    loaded.agent.name,
    Object.keys(loaded.registry.steps),
  );
  if (warnings.length > 0) io.stderr.write(formatProblemsByFile(warnings, io.cwd));
  const mock = await startMock({ script: script.value });
  const { createAnthropicClient } = await import("@climpt/sdk-adapter");
  const client = createAnthropicClient({ apiKey: "climpt-mock-no-key", baseURL: mock.url });
  io.stderr.write(
    `Model calls are answered by the mock script ${displayPath(file, io.cwd)} (${mock.url}); no API key is used.\n`,
  );
  return { ok: true, mock, client };
}
