/**
 * `@climpt/model/testing`: builders of normalized model values for tests (a step, a registry, an
 * agent definition), shared by every package's tests so that a new required field is added in one
 * place. Pure data, no I/O, so the dependency-free packages (gate-interpreter, router) can use it;
 * `@climpt/testing` re-exports it beside the agent-folder writer.
 */
export { agentOf } from "./testing/agent-of.ts";
export { registryOf } from "./testing/registry-of.ts";
export { stepOf } from "./testing/step-of.ts";
