/**
 * The chains both runtimes run: generated gate-dialect agents, written to a temp folder and
 * loaded like any agent. The generator and the folder writer are @climpt/flow's own
 * benchmark helpers (not exported from the package), shared so its `bench` and this one
 * measure the same files.
 */
import type { LoadedAgent } from "@climpt/model";
import { loadAgentDefinition } from "@climpt/runner";
import { generateRegistry } from "../../packages/flow/src/bench/generate-registry.ts";
import { writeAgentFolder } from "../../packages/flow/src/bench/write-agent-folder.ts";

export { generateRegistry, writeAgentFolder };

/**
 * A chain of `size` steps (`initial.work` → `continuation.work1` → … → `closure.end`): each
 * work step goes `next` (the last one `handoff`) and may `repeat`, hands off `out` and reads the
 * previous step's `out` in its prompt. No validators, so the closure's `closing` completes the
 * run without running commands. The iteration cap is raised to fit the chain.
 */
export async function loadChainAgent(size: number, parentDir: string): Promise<LoadedAgent> {
  const dir = writeAgentFolder(generateRegistry(size, "linear"), parentDir, {
    name: `chain-${size}`,
    withValidation: false,
    maxIterations: size + 10,
  });
  return loadAgentDefinition(dir);
}
