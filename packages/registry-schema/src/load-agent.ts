/**
 * Loads an agent folder: agent.json, the registry it names, and every step's output schema
 * (inlined into one self-contained document). Returns the loaded agent (with its warnings) or
 * every problem found in any of the files; it throws only on programming errors, never on a bad
 * definition.
 */

import { stat } from "node:fs/promises";
import * as path from "node:path";
import {
  type AgentDefinition,
  fail,
  type LoadedAgent,
  ok,
  type Problem,
  type Registry,
  type Result,
  recordValues,
  type Step,
  stepPath,
} from "@climpt/model";
import { checkAgentRegistry } from "./agent-registry-checks.ts";
import { checkValidatorBaselines } from "./baseline-checks.ts";
import { boundProblem, isStackOverflow, tooDeepProblem } from "./bounded-problems.ts";
import {
  collectRefs,
  inlineOutputSchema,
  isInside,
  refTargetFile,
  type SchemaDocument,
} from "./inline-schema-refs.ts";
import { acceptedOutputSchema } from "./intent-alias-schema.ts";
import { checkIntentEnum } from "./intent-enum-check.ts";
import { draftAgent } from "./normalize-agent.ts";
import { draftRegistry } from "./normalize-registry.ts";
import { readJsonFile } from "./read-json-file.ts";

/** Schema files one agent may pull in through `$ref`s; more is a runaway, not a design. */
const MAX_SCHEMA_FILES = 256;

/**
 * Everything the loader found in an agent folder: every problem of every file (errors and
 * warnings), the loaded agent when there is no error, and the definition as far as it could be
 * read even when there are errors, so static flow analysis can still look at a registry that
 * does not load (`climpt validate` reports both at once).
 */
export interface AgentInspection {
  /** Absolute path of the agent folder. */
  readonly dir: string;
  readonly problems: readonly Problem[];
  /** Present when no problem is an error (warnings are in `loaded.warnings` too). */
  readonly loaded?: LoadedAgent;
  /**
   * The definition as read, fields with problems defaulted. Absent when the registry file could
   * not be read or parsed; `agent` is absent when agent.json could not be read or parsed.
   */
  readonly draft?: {
    readonly agent?: AgentDefinition;
    readonly registry: Registry;
    readonly files: { readonly agent: string; readonly registry: string };
  };
}

/**
 * Reads and checks an agent folder. A definition with warnings only loads (they are in
 * `LoadedAgent.warnings`); any error fails with every problem at once.
 */
export async function loadAgent(dir: string): Promise<Result<LoadedAgent>> {
  const inspection = await inspectAgent(dir);
  return inspection.loaded === undefined ? fail(inspection.problems) : ok(inspection.loaded);
}

/**
 * `loadAgent`, keeping everything it found: see `AgentInspection`. Never throws on a bad
 * definition: a value nested deeper than any walk can follow is `SR-LOAD-013`, and every
 * problem's text is bounded (`boundProblem`), so a huge value is never echoed whole.
 */
export async function inspectAgent(dir: string): Promise<AgentInspection> {
  let inspection: AgentInspection;
  try {
    inspection = await readAgentFolder(dir);
  } catch (error) {
    if (!isStackOverflow(error)) throw error;
    inspection = { dir: path.resolve(dir), problems: [tooDeepProblem(dir)] };
  }
  return { ...inspection, problems: inspection.problems.map(boundProblem) };
}

async function readAgentFolder(dir: string): Promise<AgentInspection> {
  const agentDir = path.resolve(dir);
  const folderName = path.basename(agentDir);
  const folderProblem = await checkFolder(agentDir);
  if (folderProblem !== undefined) return { dir: agentDir, problems: [folderProblem] };

  const problems: Problem[] = [];
  const agentFile = path.join(agentDir, "agent.json");
  const agentJson = await readJsonFile(agentFile, agentDir);
  if (!agentJson.ok) {
    problems.push({
      code: agentJson.code,
      severity: "error",
      message: `agent.json ${agentJson.reason}.`,
      file: agentFile,
      path: "$",
      hint:
        agentJson.code === "SR-LOAD-001"
          ? `Create ${agentFile} (climpt init ${folderName}).`
          : agentJson.hint,
    });
  }
  const agent = draftAgent(agentJson.ok ? agentJson.value : {}, {
    file: agentFile,
    folderName,
  });
  if (agentJson.ok) problems.push(...agent.problems);

  // The registry is read even when agent.json has problems, so one run reports both files.
  const registryFile = path.resolve(agentDir, agent.value.registryPath);
  const registryJson = await readJsonFile(registryFile, agentDir);
  if (!registryJson.ok) {
    problems.push({
      code: registryJson.code,
      severity: "error",
      message: `The step registry ${agent.value.registryPath} ${registryJson.reason}.`,
      file: registryFile,
      path: "$",
      hint: registryJson.hint,
    });
    return { dir: agentDir, problems };
  }
  const registry = draftRegistry(registryJson.value, { file: registryFile, folderName });
  problems.push(...registry.problems);

  const withSchemas = await resolveOutputSchemas(registry.value, agentDir, registryFile, problems);
  problems.push(...checkValidatorBaselines(withSchemas, { registryFile }));
  if (agentJson.ok) {
    problems.push(...checkAgentRegistry(agent.value, withSchemas, { agentFile, registryFile }));
  }
  const files = { agent: agentFile, registry: registryFile };
  const draft = {
    ...(agentJson.ok ? { agent: agent.value } : {}),
    registry: withSchemas,
    files,
  };
  if (problems.some((problem) => problem.severity === "error")) {
    return { dir: agentDir, problems, draft };
  }
  const loaded: LoadedAgent = {
    dir: agentDir,
    agent: agent.value,
    registry: withSchemas,
    files,
    ...(problems.length === 0 ? {} : { warnings: problems }),
  };
  return { dir: agentDir, problems, loaded, draft };
}

async function checkFolder(agentDir: string): Promise<Problem | undefined> {
  try {
    const info = await stat(agentDir);
    if (info.isDirectory()) return undefined;
    return {
      code: "SR-LOAD-003",
      severity: "error",
      message: `${agentDir} is not a folder; an agent is a folder holding agent.json and steps_registry.json.`,
      file: agentDir,
      hint: "Pass the agent folder (e.g. .agent/<name>), not a file in it.",
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      code: code === "ENOENT" || code === "ENOTDIR" ? "SR-LOAD-001" : "SR-LOAD-003",
      severity: "error",
      message: `The agent folder ${agentDir} ${code === "ENOENT" || code === "ENOTDIR" ? "does not exist" : `cannot be read (${code ?? "unknown error"})`}.`,
      file: agentDir,
      hint: "Check the agent name or path (agents live in .agent/<name>/).",
    };
  }
}

/** Reads the schema files the steps name, and the files their `$ref`s reach, once each. */
async function readSchemaDocuments(
  entryFiles: readonly string[],
  agentDir: string,
): Promise<Map<string, SchemaDocument>> {
  const documents = new Map<string, SchemaDocument>();
  const queue = [...entryFiles];
  while (queue.length > 0 && documents.size < MAX_SCHEMA_FILES) {
    const file = queue.shift() as string;
    if (documents.has(file) || !isInside(agentDir, file)) continue;
    const read = await readJsonFile(file, agentDir);
    documents.set(
      file,
      read.ok
        ? read
        : {
            ok: false,
            code: read.code,
            reason: read.reason,
            // Only a file that is there but unusable has a fix of its own.
            ...(read.code === "SR-LOAD-014" || read.code === "SR-LOAD-015"
              ? { hint: read.hint }
              : {}),
          },
    );
    if (!read.ok) continue;
    for (const ref of collectRefs(read.value)) {
      const target = refTargetFile(ref, file);
      if (target !== undefined && !documents.has(target)) queue.push(target);
    }
  }
  return documents;
}

/** A schema file as a step names it: absolute, inside the agent folder or not, and relative. */
interface SchemaFileName {
  readonly file: string;
  readonly inside: boolean;
  readonly relative: string;
}

async function resolveOutputSchemas(
  registry: Registry,
  agentDir: string,
  registryFile: string,
  problems: Problem[],
): Promise<Registry> {
  const schemasDir = path.resolve(agentDir, registry.schemasBase);
  const stepList = recordValues(registry.steps);
  if (!stepList.some((step) => step.outputSchemaRef)) return registry;
  // Steps mostly share a few schema files: each name is resolved once (the absolute file,
  // whether it is inside the agent folder, the agent-relative name problems use), not per step.
  const names = new Map<string, SchemaFileName>();
  const nameOf = (file: string): SchemaFileName => {
    let name = names.get(file);
    if (name === undefined) {
      const absolute = path.resolve(schemasDir, file);
      name = {
        file: absolute,
        inside: isInside(agentDir, absolute),
        relative: path.relative(agentDir, absolute),
      };
      names.set(file, name);
    }
    return name;
  };
  // In step order, each file once: readSchemaDocuments skipped the repeats anyway.
  const entryFiles = new Set<string>();
  for (const step of stepList) {
    if (step.outputSchemaRef) entryFiles.add(nameOf(step.outputSchemaRef.file).file);
  }
  const documents = await readSchemaDocuments([...entryFiles], agentDir);
  // The registry is the loader's own draft (draftRegistry built it for this load and nothing
  // else holds it), so a step with a schema replaces its own entry: same key, same order,
  // without copying thousands of entries into a new record. Every entry is an own writable
  // data property (setEntry made it), so assignment sets it, `__proto__` included.
  const steps: Record<string, Step> = registry.steps;
  for (const step of stepList) {
    const ref = step.outputSchemaRef;
    if (ref === undefined) continue;
    const schema = inlineOutputSchema(ref, {
      documents,
      root: agentDir,
      schemasDir,
      registryFile,
      registryPath: stepPath(step.id),
      stepId: step.id,
      schemaFile: nameOf(ref.file),
    });
    if (!schema.ok) {
      problems.push(...schema.issues);
      continue;
    }
    const schemaFile = nameOf(ref.file).relative;
    problems.push(...checkIntentEnum(step, schema.value, { registryFile, schemaFile }));
    const accepted = acceptedOutputSchema(schema.value, step.gate);
    steps[step.id] = {
      ...step,
      outputSchema: schema.value,
      ...(accepted === undefined ? {} : { acceptedOutputSchema: accepted }),
    };
  }
  return registry;
}
