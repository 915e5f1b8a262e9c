/**
 * The soak's agent: a generated 4-step chain whose closure is validated by one real command
 * (`true`), so every completed run also starts a subprocess, and whose steps may use Bash.
 */
import type { LoadedAgent, Registry } from "@climpt/model";
import { loadAgentDefinition } from "@climpt/runner";
import { generateRegistry, writeAgentFolder } from "./chain-agent.ts";

export async function loadSoakAgent(parentDir: string, steps = 4): Promise<LoadedAgent> {
  const generated = generateRegistry(steps, "linear");
  const closure = Object.values(generated.steps).find((step) => step.kind === "closure");
  if (closure === undefined) throw new Error("the generated chain has no closure step");
  const registry: Registry = {
    ...generated,
    validators: {
      "exits-cleanly": {
        id: "exits-cleanly",
        type: "command",
        command: "true",
        successWhen: "exitCode:0",
        success: { kind: "exitCode", code: 0 },
        failurePattern: "soak-failed",
        extractParams: {},
      },
    },
    validationSteps: {
      [closure.id]: {
        id: closure.id,
        stepId: closure.id,
        c2: "retry",
        c3: "end",
        conditions: [{ validator: "exits-cleanly" }],
        onFailure: { action: "retry", maxAttempts: 2 },
      },
    },
  };
  const dir = writeAgentFolder(registry, parentDir, {
    name: "soak-chain",
    allowedTools: ["Read", "Bash"],
  });
  return loadAgentDefinition(dir);
}
