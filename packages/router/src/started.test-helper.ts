// Test helper (not exported): the start state of a router whose entry step the test knows exists.
import type { Registry } from "@climpt/model";
import type { Router } from "./create-router.ts";
import { createRouterState, type RouterState } from "./router-state.ts";

/** `router.start(entryStepId)`, unwrapped: a refusal fails the test with its problems. */
export function started(router: Router, entryStepId: string): RouterState {
  const start = router.start(entryStepId);
  if (!start.ok) throw new Error(`router.start refused: ${JSON.stringify(start.issues)}`);
  return start.value;
}

/** `createRouterState(registry, entryStepId)`, unwrapped, for tests that drive the functions. */
export function startState(registry: Registry, entryStepId: string): RouterState {
  const start = createRouterState(registry, entryStepId);
  if (!start.ok) throw new Error(`createRouterState refused: ${JSON.stringify(start.issues)}`);
  return start.value;
}
