import type { JsonValue } from "@climpt/model";
import type { OrchestratorError } from "../codes.ts";
import type { Workflow } from "../workflow-model.ts";
import { invalidPayload, schemaViolations } from "./emit-handoffs.ts";

/**
 * Why a payload given by hand (`--payload`) cannot be the issue's, or null: it must satisfy the
 * workflow's `payloadSchema`, as a handoff's payload must before it is kept.
 */
export function payloadProblem(
  workflow: Workflow,
  payload: Readonly<Record<string, JsonValue>>,
): OrchestratorError | null {
  const schema = workflow.payloadSchema;
  if (schema === null) return null;
  const violations = schemaViolations(schema, payload);
  if (violations.length === 0) return null;
  return invalidPayload(
    "The payload given",
    schema,
    violations,
    "Give a payload the workflow's payloadSchema accepts.",
  );
}
