import type { AgentDefinition } from "../model.ts";

/**
 * A normalized agent definition for tests, as the loader produces it for a nested agent.json
 * named "demo" with a `detect:graph` verdict and nothing else: the built-in tools, the default
 * permission mode, GitHub integration off (so no test reaches for `gh` by accident), no worktree,
 * no limits. `overrides` replace whole fields.
 */
export function agentOf(overrides: Partial<AgentDefinition> = {}): AgentDefinition {
  return {
    name: "demo",
    shape: "nested",
    parameters: {},
    systemPromptPath: "prompts/system.md",
    registryPath: "steps_registry.json",
    verdict: { type: "detect:graph", declaredType: "detect:graph", config: {} },
    allowedTools: ["Read", "Write", "Edit", "Bash", "Glob", "Grep"],
    permissionMode: "default",
    github: { enabled: false, labels: {}, defaultClosureAction: "close" },
    worktree: { enabled: false },
    logging: { directory: "tmp/logs", format: "jsonl" },
    limits: {},
    ...overrides,
  };
}
