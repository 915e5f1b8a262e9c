import { jsonPath } from "@climpt/model";
import { ORCHESTRATOR_CODES as C } from "./codes.ts";
import { unknownFields } from "./read-fields.ts";
import {
  type HandoffDeclaration,
  LANDING_MODES,
  type LandingConfig,
  type LandingMode,
  type NamedSchema,
} from "./workflow-model.ts";
import { describeType, didYouMean, isRecord, type ProblemList } from "./workflow-problems.ts";

/** The original's rule for a handoff id: kebab-case, starting with a letter. */
const HANDOFF_ID = /^[a-z][a-z0-9-]*$/;

function text(
  problems: ProblemList,
  owner: Record<string, unknown>,
  key: string,
  path: string,
  what: string,
): string | null {
  const value = owner[key];
  if (typeof value === "string" && value !== "") return value;
  problems.error(
    C.handoffShape,
    jsonPath(path, key),
    value === undefined
      ? `${what} has no "${key}".`
      : `${jsonPath(path, key)} must be a non-empty string, not ${describeType(value)}.`,
    `Write "${key}": "<text>" (see the orchestrator README, Artifact handoffs).`,
  );
  return null;
}

function object(
  problems: ProblemList,
  owner: Record<string, unknown>,
  key: string,
  path: string,
  what: string,
): Record<string, unknown> | null {
  const value = owner[key];
  if (isRecord(value)) return value;
  problems.error(
    C.handoffShape,
    jsonPath(path, key),
    value === undefined
      ? `${what} has no "${key}".`
      : `${jsonPath(path, key)} must be an object, not ${describeType(value)}.`,
    `Write "${key}": { … } (see the orchestrator README, Artifact handoffs).`,
  );
  return null;
}

function readHandoff(
  problems: ProblemList,
  raw: unknown,
  path: string,
  seen: Map<string, string>,
): HandoffDeclaration | null {
  if (!isRecord(raw)) {
    problems.error(
      C.handoffShape,
      path,
      `A handoffs entry must be an object, not ${describeType(raw)}.`,
      'Write { "id": "…", "when": { … }, "emit": { … }, "payloadFrom": { … }, "persistPayloadTo": "subjectStore" }.',
    );
    return null;
  }
  unknownFields(problems, raw, ["id", "when", "emit", "payloadFrom", "persistPayloadTo"], path);
  const id = text(problems, raw, "id", path, "The handoff");
  if (id !== null && !HANDOFF_ID.test(id)) {
    problems.error(
      C.handoffShape,
      jsonPath(path, "id"),
      `Handoff id "${id}" is not kebab-case starting with a letter.`,
      'Write e.g. "reviewer-approved-verdict".',
    );
  }
  if (id !== null) {
    const first = seen.get(id);
    if (first !== undefined) {
      problems.error(
        C.handoffShape,
        jsonPath(path, "id"),
        `Handoff id "${id}" is used twice (first at ${first}).`,
        "Give each handoff an id of its own.",
      );
    } else seen.set(id, path);
  }
  const label = `Handoff "${id ?? "?"}"`;
  const when = object(problems, raw, "when", path, label);
  const whenPath = jsonPath(path, "when");
  if (when !== null) unknownFields(problems, when, ["fromAgent", "outcome"], whenPath);
  const fromAgent =
    when === null ? null : text(problems, when, "fromAgent", whenPath, `${label}.when`);
  const outcome = when === null ? null : text(problems, when, "outcome", whenPath, `${label}.when`);
  const emit = object(problems, raw, "emit", path, label);
  const emitPath = jsonPath(path, "emit");
  if (emit !== null) unknownFields(problems, emit, ["type", "schemaRef", "path"], emitPath);
  const type = emit === null ? null : text(problems, emit, "type", emitPath, `${label}.emit`);
  const schemaRef =
    emit === null ? null : text(problems, emit, "schemaRef", emitPath, `${label}.emit`);
  const artifact = emit === null ? null : text(problems, emit, "path", emitPath, `${label}.emit`);
  const payloadFrom = object(problems, raw, "payloadFrom", path, label);
  const entries: [string, string][] = [];
  for (const [key, expression] of Object.entries(payloadFrom ?? {})) {
    if (typeof expression === "string") entries.push([key, expression]);
    else
      problems.error(
        C.handoffShape,
        jsonPath(jsonPath(path, "payloadFrom"), key),
        `payloadFrom "${key}" must be an expression (a string), not ${describeType(expression)}.`,
        `Write "$.agent.result.<field>", a 'quoted literal', or a \${payload.<key>} template.`,
      );
  }
  const persist = raw.persistPayloadTo;
  if (persist !== "subjectStore" && persist !== "none") {
    problems.error(
      C.handoffShape,
      jsonPath(path, "persistPayloadTo"),
      `${label} persistPayloadTo is ${persist === undefined ? "missing" : JSON.stringify(persist)}; it must be "subjectStore" or "none".`,
      '"subjectStore" keeps the payload with the issue for the next agents; "none" only writes the artifact.',
    );
  }
  if (
    id === null ||
    fromAgent === null ||
    outcome === null ||
    type === null ||
    schemaRef === null ||
    artifact === null ||
    payloadFrom === null ||
    (persist !== "subjectStore" && persist !== "none")
  )
    return null;
  return {
    id,
    at: path,
    when: { fromAgent, outcome },
    emit: { type, schemaRef, path: artifact },
    payloadFrom: entries,
    persistPayloadTo: persist,
  };
}

/** `handoffs`: the artifact handoffs, each checked for its shape (references are checked later). */
export function readHandoffs(problems: ProblemList, raw: unknown): HandoffDeclaration[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.error(
      C.handoffShape,
      "$.handoffs",
      `$.handoffs must be a list, not ${describeType(raw)}.`,
      'Write "handoffs": [ { "id": "…", … } ].',
    );
    return [];
  }
  const seen = new Map<string, string>();
  const handoffs: HandoffDeclaration[] = [];
  raw.forEach((entry, index) => {
    const read = readHandoff(problems, entry, jsonPath("$.handoffs", index), seen);
    if (read !== null) handoffs.push(read);
  });
  return handoffs;
}

/** `payloadSchema`: `{ "$ref": "<path relative to the repository>" }`; the file is read later. */
export function readPayloadSchema(problems: ProblemList, raw: unknown): NamedSchema | null {
  if (raw === undefined) return null;
  if (!isRecord(raw) || typeof raw.$ref !== "string" || raw.$ref === "") {
    problems.error(
      C.handoffShape,
      "$.payloadSchema",
      `$.payloadSchema must be { "$ref": "<schema file>" }, not ${describeType(raw)}.`,
      'Write "payloadSchema": { "$ref": ".agent/<workflow>/schemas/payload.json" } (relative to the repository).',
    );
    return null;
  }
  unknownFields(problems, raw, ["$ref"], "$.payloadSchema");
  return { ref: raw.$ref, file: null, schema: null };
}

/** `land`: `"merge"`, or `{ "mode": …, "remote": "origin", "base": "<branch>" }`. */
export function readLanding(problems: ProblemList, raw: unknown): LandingConfig | null {
  if (raw === undefined) return null;
  const shape =
    'Write "land": "merge" | "pull-request" | "push", or { "mode": …, "remote": "origin", "base": "<branch>" }.';
  const mode = (value: unknown, at: string): LandingMode | null => {
    if (typeof value === "string" && (LANDING_MODES as readonly string[]).includes(value))
      return value as LandingMode;
    problems.error(
      C.landShape,
      at,
      `The landing mode is ${JSON.stringify(value)}; it must be one of ${LANDING_MODES.join(", ")}.${typeof value === "string" ? didYouMean(value, LANDING_MODES) : ""}`,
      shape,
    );
    return null;
  };
  if (typeof raw === "string") {
    const read = mode(raw, "$.land");
    return read === null ? null : { mode: read, remote: "origin", base: null };
  }
  if (!isRecord(raw)) {
    problems.error(
      C.landShape,
      "$.land",
      `$.land must be a string or an object, not ${describeType(raw)}.`,
      shape,
    );
    return null;
  }
  unknownFields(problems, raw, ["mode", "remote", "base"], "$.land");
  const read = mode(raw.mode, "$.land.mode");
  for (const key of ["remote", "base"]) {
    const value = raw[key];
    if (value !== undefined && (typeof value !== "string" || value === "")) {
      problems.error(
        C.landShape,
        jsonPath("$.land", key),
        `$.land.${key} must be a non-empty string.`,
        shape,
      );
      return null;
    }
  }
  if (read === null) return null;
  return {
    mode: read,
    remote: typeof raw.remote === "string" ? raw.remote : "origin",
    base: typeof raw.base === "string" ? raw.base : null,
  };
}
