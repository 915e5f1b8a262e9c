import { looksLikePath } from "../locate-agent.ts";
import { shellWord } from "../progress/format.ts";

/** The flags of the original command line that the resumed run needs again, with their values. */
const KEPT_FLAGS = ["--agent-dir", "--cwd", "--replay", "--mock"];

/**
 * The command that continues run `runId`, as the user pointed climpt at the agent: `climpt
 * resume <runId>`, with `--agent <path>` when the agent was given by path (a name is found under
 * .agent/ again), and the `--agent-dir`, `--cwd`, `--replay` and `--mock` the run was started with.
 */
export function resumeCommandFor(agentRef: string, argv: readonly string[], runId: string): string {
  const words = ["climpt", "resume", runId];
  if (looksLikePath(agentRef)) words.push("--agent", agentRef);
  for (const [index, token] of argv.entries()) {
    for (const flag of KEPT_FLAGS) {
      if (token === flag && argv[index + 1] !== undefined)
        words.push(flag, argv[index + 1] as string);
      else if (token.startsWith(`${flag}=`)) words.push(flag, token.slice(flag.length + 1));
    }
  }
  return words.map(shellWord).join(" ");
}
