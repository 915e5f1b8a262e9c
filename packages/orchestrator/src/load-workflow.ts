import path from "node:path";
import { fail, ok, type Problem, type Result } from "@climpt/model";
import { readRegularFile } from "@climpt/runner";
import { checkWorkflow } from "./check-workflow.ts";
import { ORCHESTRATOR_CODES as C } from "./codes.ts";
import { resolveWorkflowSchemas } from "./handoff/workflow-schemas.ts";
import { findDuplicateKeys } from "./json-duplicate-keys.ts";
import { readWorkflow } from "./read-workflow.ts";
import { DEFAULT_WORKFLOW_PATH, type Workflow } from "./workflow-model.ts";
import { ProblemList } from "./workflow-problems.ts";

/** The largest workflow file read: a workflow is a page of JSON; past this it is not one. */
const MAX_WORKFLOW_FILE_BYTES = 16 * 1024 * 1024;

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
  // Without blocking and only a regular file: a FIFO in its place would hold `climpt
  // orchestrate` (and its --dry-run) until some writer came.
  const read = await readRegularFile(file, { maxBytes: MAX_WORKFLOW_FILE_BYTES });
  if (!read.ok) {
    const missing = read.reason === "missing";
    return fail([
      {
        code: missing ? C.loadNotFound : C.loadReadFailed,
        severity: "error",
        file,
        message: missing
          ? `There is no workflow file at ${file}.`
          : `The workflow file ${file} cannot be read: it ${read.detail}.`,
        hint: missing
          ? "Create .agent/workflow.json (the orchestrator README has an example), or pass --workflow PATH."
          : read.reason === "unreadable"
            ? "Check the file's permissions."
            : "Make it a regular JSON file (a FIFO or device in its place is never read).",
      },
    ]);
  }
  const problems = new ProblemList(file);
  const workflow = parseInto(problems, read.bytes.toString("utf8"));
  if (workflow === null || problems.hasErrors) return fail(problems.items);
  // The schemas handoffs and payloadSchema name live in files of the repository (`cwd`).
  const resolved = await resolveWorkflowSchemas(problems, workflow, cwd);
  if (problems.hasErrors) return fail(problems.items);
  return ok({ workflow: resolved, warnings: problems.items });
}
