// What both executor benches hand the executors: the fake API's key, a system prompt of a
// realistic size, and an agent definition with the usual tools, so the two benches measure the
// same agent.
export const KEY = "sk-ant-bench-key-0123456789";

export const system = "You are a bug-fixing agent. Keep changes small. ".repeat(20);

export const agent = {
  name: "bench",
  shape: "flat",
  parameters: {},
  systemPromptPath: "prompts/system.md",
  registryPath: "steps_registry.json",
  verdict: { type: "detect:graph", declaredType: "stepMachine", config: {} },
  allowedTools: ["Read", "Write", "Edit", "Bash", "Glob", "Grep"],
  permissionMode: "acceptEdits",
  github: { enabled: false, labels: {}, defaultClosureAction: "close" },
  worktree: { enabled: false },
  logging: { directory: "tmp/logs", format: "jsonl" },
  limits: {},
};
