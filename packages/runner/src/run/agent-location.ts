import type { LoadedAgent } from "@climpt/model";
import {
  type AgentLocationOptions,
  findAgentDir as findAgentFolder,
  loadAgent,
} from "@climpt/registry-schema";
import { AgentDefinitionError } from "../runner-error.ts";

/**
 * The folder of an agent named on the command line: registry-schema's `findAgentDir`, throwing
 * `AgentDefinitionError` (`SR-LOAD-001`, naming every folder tried) instead of returning a Result.
 */
export function findAgentDir(nameOrPath: string, options: AgentLocationOptions = {}): string {
  const found = findAgentFolder(nameOrPath, options);
  if (!found.ok) throw new AgentDefinitionError(found.issues);
  return found.value;
}

/**
 * The original runtime's `loadAgentDefinition`: finds the agent, loads and validates agent.json,
 * the registry and every output schema. Throws `AgentDefinitionError` carrying every problem at
 * once.
 */
export async function loadAgentDefinition(
  nameOrPath: string,
  options: AgentLocationOptions = {},
): Promise<LoadedAgent> {
  const dir = findAgentDir(nameOrPath, options);
  const loaded = await loadAgent(dir);
  if (!loaded.ok) throw new AgentDefinitionError(loaded.issues);
  return loaded.value;
}
