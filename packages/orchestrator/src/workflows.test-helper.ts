import { readFileSync } from "node:fs";
import path from "node:path";
import { parseWorkflow } from "./load-workflow.ts";
import type { Workflow } from "./workflow-model.ts";

export const FIXTURES = path.join(import.meta.dirname, "fixtures");
export const PIPELINE_FILE = path.join(FIXTURES, "pipeline.workflow.json");

/** The pipeline fixture as a plain object, to change in a test. */
export function pipelineRaw(): Record<string, unknown> {
  return JSON.parse(readFileSync(PIPELINE_FILE, "utf8")) as Record<string, unknown>;
}

/** A workflow from an object; throws listing the problems when it does not load. */
export function workflowOf(raw: unknown, file = "/repo/.agent/workflow.json"): Workflow {
  const loaded = parseWorkflow(JSON.stringify(raw), file);
  if (!loaded.ok) {
    throw new Error(
      loaded.issues.map((issue) => `${issue.code} ${issue.path}: ${issue.message}`).join("\n"),
    );
  }
  return loaded.value.workflow;
}

export function pipeline(change?: (raw: Record<string, unknown>) => void): Workflow {
  const raw = pipelineRaw();
  change?.(raw);
  return workflowOf(raw);
}
