// What both executor benches hand the executors: the fake API's key, a system prompt of a
// realistic size, and an agent definition with the usual tools, so the two benches measure the
// same agent.
import { agentOf } from "@climpt/testing";

export const KEY = "sk-ant-bench-key-0123456789";

export const system = "You are a bug-fixing agent. Keep changes small. ".repeat(20);

export const agent = agentOf({
  name: "bench",
  shape: "flat",
  verdict: { type: "detect:graph", declaredType: "stepMachine", config: {} },
  permissionMode: "acceptEdits",
});
