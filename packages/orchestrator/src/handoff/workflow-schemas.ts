import { stat } from "node:fs/promises";
import path from "node:path";
import { type JsonSchema, jsonPath } from "@climpt/model";
import { readRegularFile } from "@climpt/runner";
import { compileSchema } from "@climpt/sdk-adapter";
import { ORCHESTRATOR_CODES as C } from "../codes.ts";
import type { NamedSchema, Workflow } from "../workflow-model.ts";
import { isRecord, type ProblemList } from "../workflow-problems.ts";

/** The largest schema file read: a schema is a page of JSON. */
const MAX_SCHEMA_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Where a handoff's `emit.schemaRef` is looked for, in order, relative to the repository:
 * `.agent/schemas/<ref>.json`, then `agents/common/schemas/<ref>.json` (where the original
 * runtime keeps its shared schemas, so its workflows find theirs unchanged).
 */
export const SCHEMA_REF_FOLDERS: string[] = [
  path.join(".agent", "schemas"),
  path.join("agents", "common", "schemas"),
];

function inside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

/**
 * Reads one schema. Its problems are warnings: the original runtime loads a workflow whose
 * schemas it cannot read (it reads them only when a handoff fires); the payload that must be
 * checked against it is refused then, with the reason kept here.
 */
async function readSchema(
  problems: ProblemList,
  file: string,
  at: string,
  ref: string,
): Promise<Record<string, unknown> | string> {
  // A regular file only, opened without blocking: a FIFO or a device (also one swapped in after
  // a check) would block the read.
  const read = await readRegularFile(file, { maxBytes: MAX_SCHEMA_FILE_BYTES });
  if (!read.ok) {
    const why = `The schema "${ref}" cannot be read from ${file}: it ${read.detail}.`;
    problems.warning(
      C.handoffSchema,
      at,
      why,
      "Check the path (relative to the repository) and the file.",
    );
    return why;
  }
  const text = read.bytes.toString("utf8");
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    const why = `The schema "${ref}" (${file}) is not JSON: ${(error as Error).message}.`;
    problems.warning(C.handoffSchema, at, why, "Fix the JSON syntax.");
    return why;
  }
  if (!isRecord(schema)) {
    const why = `The schema "${ref}" (${file}) is not a JSON object.`;
    problems.warning(C.handoffSchema, at, why, "Write a JSON Schema object.");
    return why;
  }
  try {
    compileSchema(schema as JsonSchema);
  } catch (error) {
    const why = `The schema "${ref}" (${file}) does not compile: ${(error as Error).message}.`;
    problems.warning(
      C.handoffSchema,
      at,
      why,
      "Fix the schema (an unresolvable $ref, a malformed keyword).",
    );
    return why;
  }
  return schema;
}

/**
 * Reads the schemas a workflow names: `payloadSchema.$ref` (a path relative to the repository)
 * and each handoff's `emit.schemaRef` (looked for in `SCHEMA_REF_FOLDERS`). Every schema must be
 * a JSON object that compiles and lies inside the repository; problems name the JSON path.
 */
export async function resolveWorkflowSchemas(
  problems: ProblemList,
  workflow: Workflow,
  repoDir: string,
): Promise<Workflow> {
  const root = path.resolve(repoDir);
  let payloadSchema: NamedSchema | null = workflow.payloadSchema;
  if (payloadSchema !== null) {
    const file = path.resolve(root, payloadSchema.ref);
    const at = "$.payloadSchema.$ref";
    if (!inside(root, file)) {
      const why = `The payload schema "${payloadSchema.ref}" lies outside the repository ${root}.`;
      problems.warning(
        C.handoffSchema,
        at,
        why,
        "Keep the schema inside the repository and name it relative to it.",
      );
      payloadSchema = { ref: payloadSchema.ref, file: null, schema: null, unavailable: why };
    } else {
      const schema = await readSchema(problems, file, at, payloadSchema.ref);
      payloadSchema =
        typeof schema === "string"
          ? { ref: payloadSchema.ref, file, schema: null, unavailable: schema }
          : { ref: payloadSchema.ref, file, schema };
    }
  }
  const handoffSchemas: Record<string, NamedSchema> = {};
  for (const handoff of workflow.handoffs) {
    const ref = handoff.emit.schemaRef;
    if (Object.hasOwn(handoffSchemas, ref)) continue;
    const at = jsonPath(jsonPath(handoff.at, "emit"), "schemaRef");
    const candidates = SCHEMA_REF_FOLDERS.map((folder) =>
      path.resolve(root, folder, `${ref}.json`),
    );
    const file = candidates.find((candidate) => inside(root, candidate));
    if (file === undefined) {
      const why = `The schema ref "${ref}" leaves the repository.`;
      problems.warning(C.handoffSchema, at, why, "Name a schema by its file name without a path.");
      handoffSchemas[ref] = { ref, file: null, schema: null, unavailable: why };
      continue;
    }
    const existing = [];
    for (const candidate of candidates) {
      if (inside(root, candidate) && (await stat(candidate).catch(() => null)) !== null)
        existing.push(candidate);
    }
    const found = existing[0];
    if (found === undefined) {
      const why = `The schema "${ref}" is in none of ${candidates.join(", ")}.`;
      problems.warning(
        C.handoffSchema,
        at,
        `${why} The workflow loads; the handoff fails when it fires.`,
        `Put the schema at ${path.join(SCHEMA_REF_FOLDERS[0] as string, `${ref}.json`)}.`,
      );
      handoffSchemas[ref] = { ref, file: null, schema: null, unavailable: why };
      continue;
    }
    const schema = await readSchema(problems, found, at, ref);
    handoffSchemas[ref] =
      typeof schema === "string"
        ? { ref, file: found, schema: null, unavailable: schema }
        : { ref, file: found, schema };
  }
  return { ...workflow, payloadSchema, handoffSchemas };
}
