import { readFile } from "node:fs/promises";
import path from "node:path";
import { fail, ok, type Problem, type Result } from "@climpt/model";
import { checkWorkflow } from "./check-workflow.ts";
import { ORCHESTRATOR_CODES as C } from "./codes.ts";
import { resolveWorkflowSchemas } from "./handoff/workflow-schemas.ts";
import { findDuplicateKeys } from "./json-duplicate-keys.ts";
import { readWorkflow } from "./read-workflow.ts";
import { DEFAULT_WORKFLOW_PATH, type Workflow } from "./workflow-model.ts";
import { ProblemList } from "./workflow-problems.ts";

export interface LoadedWorkflow {
  readonly workflow: Workflow;
  /** Problems that do not stop the workflow from running. */
  readonly warnings: readonly Problem[];
}

/**
 * Checks the text of a workflow file: JSON, no key given twice, the shape of every field, and
 * the references between phases, labels and agents. All problems at once; warnings alone do not
 * fail it.
 */
export function parseWorkflow(text: string, file: string): Result<LoadedWorkflow> {
  const problems = new ProblemList(file);
  const workflow = parseInto(problems, text);
  if (workflow === null || problems.hasErrors) return fail(problems.items);
  return ok({ workflow, warnings: problems.items });
}

function parseInto(problems: ProblemList, text: string): Workflow | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    problems.error(
      C.loadInvalidJson,
      "$",
      `The workflow is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`,
      "Fix the JSON syntax (a trailing comma, a missing quote).",
    );
    return null;
  }
  // A warning, not an error: the original runtime reads such a file (JSON keeps the last).
  for (const duplicate of findDuplicateKeys(text)) {
    problems.warning(
      C.loadDuplicateKey,
      duplicate.path,
      `"${duplicate.key}" is given twice in ${duplicate.path}; JSON keeps only the last, so the first is ignored.`,
      "Keep one entry for the key.",
    );
  }
  const workflow = readWorkflow(problems, raw);
  checkWorkflow(problems, workflow);
  return workflow;
}

export interface LoadWorkflowOptions {
  /** Relative to `cwd`; default `.agent/workflow.json`. */
  readonly path?: string;
}

/** Reads and checks `<cwd>/.agent/workflow.json` (or `path`). */
export async function loadWorkflow(
  cwd: string,
  options: LoadWorkflowOptions = {},
): Promise<Result<LoadedWorkflow>> {
  const file = path.resolve(cwd, options.path ?? DEFAULT_WORKFLOW_PATH);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    return fail([
      {
        code: missing ? C.loadNotFound : C.loadReadFailed,
        severity: "error",
        file,
        message: missing
          ? `There is no workflow file at ${file}.`
          : `The workflow file ${file} cannot be read: ${(error as Error).message}.`,
        hint: missing
          ? "Create .agent/workflow.json (the orchestrator README has an example), or pass --workflow PATH."
          : "Check the file's permissions.",
      },
    ]);
  }
  const problems = new ProblemList(file);
  const workflow = parseInto(problems, text);
  if (workflow === null || problems.hasErrors) return fail(problems.items);
  // The schemas handoffs and payloadSchema name live in files of the repository (`cwd`).
  const resolved = await resolveWorkflowSchemas(problems, workflow, cwd);
  if (problems.hasErrors) return fail(problems.items);
  return ok({ workflow: resolved, warnings: problems.items });
}
