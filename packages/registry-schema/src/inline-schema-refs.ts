/**
 * Turns a step's `outputSchemaRef` into ONE self-contained JSON Schema: every `$ref` inlined,
 * within a file and across files, each ref resolved relative to the file it is written in.
 * Pure: the documents are handed in already read (load-agent.ts reads them).
 *
 * - A ref without siblings is replaced by its target. With annotation-only siblings
 *   (`description`, `title`, …) they are laid over the target; with other siblings the result is
 *   `{ allOf: [target], …siblings }`, which is what a `$ref` with siblings means since 2019-09.
 * - Only schema positions are walked (`properties`, `items`, `allOf`, …), never data such as
 *   `enum`, `const`, `default` or `examples`, so a `{"$ref": …}` inside a default stays data.
 * - `$defs` / `definitions` / `$id` are dropped from the result: nothing refers to them any more.
 * - A real cycle (a ref reached again while it is being inlined) is `SR-LOAD-009`, naming the
 *   chain; two sibling refs to one definition are not a cycle. Expansion is capped
 *   (`SR-LOAD-010`) so a pathological schema cannot hang the loader.
 */
import * as path from "node:path";
import {
  fail,
  isPlainObject,
  type JsonObject,
  type JsonSchema,
  type JsonValue,
  jsonPath,
  type OutputSchemaRef,
  ok,
  type Problem,
  type Result,
  setEntry,
} from "@climpt/model";
import { cutShort } from "./bounded-problems.ts";
import {
  formatJsonPointer,
  fragmentToPointer,
  parseJsonPointer,
  pointerToJsonPath,
  resolveJsonPointer,
} from "./json-pointer.ts";

/** A schema file as the loader found it. */
export type SchemaDocument =
  | { readonly ok: true; readonly value: JsonValue }
  | {
      readonly ok: false;
      readonly code: string;
      readonly reason: string;
      /** How to fix the file itself, when that is not "create it" or "fix its syntax". */
      readonly hint?: string;
    };

export interface InlineSchemaOptions {
  /** Absolute path → document, for every file the refs may reach (see collectSchemaRefFiles). */
  readonly documents: ReadonlyMap<string, SchemaDocument>;
  /** The agent folder (absolute): no ref may leave it. */
  readonly root: string;
  /** The schemas folder (absolute) that `outputSchemaRef.file` is relative to. */
  readonly schemasDir: string;
  /** Where the outputSchemaRef is written, for problems that are fixed in the registry. */
  readonly registryFile?: string;
  readonly registryPath: string;
  readonly stepId: string;
  /** Schema nodes the result may have, after inlining (default 100 000). */
  readonly maxNodes?: number;
  /**
   * `outputSchemaRef.file` resolved against `schemasDir`, and whether that is inside `root`, when
   * the caller has it already: a loader works it out once per file, not once per step.
   */
  readonly schemaFile?: { readonly file: string; readonly inside: boolean };
}

const DEFAULT_MAX_NODES = 100_000;
const MAX_DEPTH = 512;

const SCHEMA_MAP_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
]);
const SCHEMA_LIST_KEYWORDS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const SCHEMA_KEYWORDS = new Set([
  "items",
  "additionalItems",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "propertyNames",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "contentSchema",
]);
const DROPPED_KEYWORDS = new Set(["$defs", "definitions", "$id"]);
const ANNOTATION_KEYWORDS = new Set([
  "title",
  "description",
  "default",
  "examples",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** The absolute file a `$ref`'s file part names, relative to the file it is written in. */
export function refTargetFile(ref: string, fromFile: string): string | undefined {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(ref)) return undefined;
  const hash = ref.indexOf("#");
  const filePart = hash === -1 ? ref : ref.slice(0, hash);
  if (filePart === "") return fromFile;
  try {
    return path.resolve(path.dirname(fromFile), decodeURI(filePart));
  } catch {
    return undefined;
  }
}

/** Every `$ref` string anywhere in a document (data positions too: over-collecting is harmless). */
export function collectRefs(document: JsonValue): string[] {
  const refs: string[] = [];
  const stack: JsonValue[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      // One push per item: spreading an array of a few hundred thousand values (a large enum)
      // into push's arguments overflows the call stack.
      for (const item of node) stack.push(item);
    } else if (isPlainObject(node)) {
      // Keys, then a lookup: a schema file's `definitions` may hold thousands of entries.
      for (const key of Object.keys(node)) {
        const value = node[key];
        if (key === "$ref" && typeof value === "string") refs.push(value);
        else stack.push(value as JsonValue);
      }
    }
  }
  return refs;
}

export function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** The step's output schema with every `$ref` inlined, or the problems that prevent it. */
export function inlineOutputSchema(
  ref: OutputSchemaRef,
  options: InlineSchemaOptions,
): Result<JsonSchema> {
  return new Inliner(options).run(ref);
}

/**
 * Where a node sits inside its own file: the pointer it was reached by, or its parent's place
 * and its key. Turned into a JSON path (`placePath`) only for a problem: a large agent inlines
 * hundreds of thousands of nodes and almost none of them has one.
 */
type Place =
  | { readonly segments: readonly string[] }
  | { readonly parent: Place; readonly key: string | number };

/** The JSON path of a place: the same `jsonPath` steps as building it node by node. */
function placePath(place: Place): string {
  const keys: (string | number)[] = [];
  let at = place;
  while ("parent" in at) {
    keys.push(at.key);
    at = at.parent;
  }
  let path = pointerToJsonPath(at.segments);
  for (let index = keys.length - 1; index >= 0; index--) {
    path = jsonPath(path, keys[index] as string | number);
  }
  return path;
}

interface Context {
  readonly file: string;
  /** Where the node is inside its own file. */
  readonly place: Place;
  /** `file#pointer` of every ref being inlined, outermost first. */
  readonly chain: readonly string[];
  readonly depth: number;
}

class Inliner {
  private readonly problems: Problem[] = [];
  private readonly seen = new Set<string>();
  private nodes = 0;
  private aborted = false;
  private readonly maxNodes: number;

  constructor(private readonly options: InlineSchemaOptions) {
    this.maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;
  }

  run(ref: OutputSchemaRef): Result<JsonSchema> {
    const { options } = this;
    const refAt = `${options.registryPath}.outputSchemaRef`;
    const file = options.schemaFile?.file ?? path.resolve(options.schemasDir, ref.file);
    if (!(options.schemaFile?.inside ?? isInside(options.root, file))) {
      this.registryProblem(
        "SR-LOAD-007",
        `${refAt}.file`,
        `Step "${options.stepId}" names schema file "${cutShort(ref.file)}", which is outside the agent folder.`,
        "Keep schema files inside the agent folder, under its schemas folder (schemasBase).",
      );
      return fail(this.problems);
    }
    const document = options.documents.get(file);
    if (document === undefined || !document.ok) {
      this.registryProblem(
        document?.code ?? "SR-LOAD-001",
        `${refAt}.file`,
        `Step "${options.stepId}" names schema file "${cutShort(ref.file)}" (${this.display(file)}), which ${document?.ok === false ? document.reason : "does not exist"}.`,
        document?.code === "SR-LOAD-004"
          ? `Fix the JSON syntax of ${this.display(file)}.`
          : document?.ok === false && document.hint !== undefined
            ? document.hint
            : `Create ${this.display(file)}, or correct outputSchemaRef.file (it is relative to the schemas folder).`,
      );
      return fail(this.problems);
    }
    const located = this.locate(document.value, ref.schema);
    if (located === undefined) {
      this.registryProblem(
        "SR-LOAD-008",
        `${refAt}.schema`,
        `Step "${options.stepId}": schema "${cutShort(ref.schema)}" is not in ${this.display(file)}.`,
        `Use a JSON pointer ("#/definitions/<name>") or one of the names the file defines: ${this.definedNames(document.value).join(", ") || "(none)"}.`,
      );
      return fail(this.problems);
    }
    const key = `${file}#${formatJsonPointer(located.segments)}`;
    const result = this.inline(located.node, {
      file,
      place: { segments: located.segments },
      chain: [key],
      depth: 0,
    });
    if (this.problems.length > 0) return fail(this.problems);
    if (!isPlainObject(result)) {
      this.registryProblem(
        "SR-LOAD-008",
        `${refAt}.schema`,
        `Step "${options.stepId}": "${cutShort(ref.schema)}" in ${this.display(file)} is not a schema object.`,
        'Point outputSchemaRef at an object schema ({ "type": "object", … }).',
      );
      return fail(this.problems);
    }
    return ok(result as JsonObject);
  }

  /** A pointer (`#/definitions/x`) or a bare name: definitions, then $defs, then the top level. */
  private locate(
    document: JsonValue,
    schema: string,
  ): { node: JsonValue; segments: string[] } | undefined {
    if (schema.startsWith("#/") || schema === "#") {
      const pointer = fragmentToPointer(schema.slice(1));
      const segments = pointer === undefined ? undefined : parseJsonPointer(pointer);
      if (segments === undefined) return undefined;
      const node = resolveJsonPointer(document, segments);
      return node === undefined ? undefined : { node, segments };
    }
    const name = schema.startsWith("#") ? schema.slice(1) : schema;
    for (const segments of [["definitions", name], ["$defs", name], [name]]) {
      const node = resolveJsonPointer(document, segments);
      if (node !== undefined) return { node, segments };
    }
    return undefined;
  }

  private definedNames(document: JsonValue): string[] {
    if (!isPlainObject(document)) return [];
    const names = new Set<string>();
    for (const group of ["definitions", "$defs"]) {
      const defs = document[group];
      if (isPlainObject(defs)) for (const name of Object.keys(defs)) names.add(name);
    }
    for (const [name, value] of Object.entries(document)) {
      if (!name.startsWith("$") && isPlainObject(value) && !SCHEMA_MAP_KEYWORDS.has(name)) {
        names.add(name);
      }
    }
    return [...names].slice(0, 20);
  }

  private inline(node: JsonValue, context: Context): JsonValue {
    if (this.aborted) return {};
    if (++this.nodes > this.maxNodes || context.depth > MAX_DEPTH) {
      this.aborted = true;
      this.registryProblem(
        "SR-LOAD-010",
        `${this.options.registryPath}.outputSchemaRef`,
        `Step "${this.options.stepId}": the output schema ${context.depth > MAX_DEPTH ? `nests more than ${MAX_DEPTH} levels deep` : `grows past ${this.maxNodes} nodes`} once its $refs are inlined.`,
        "Simplify the schema: share less through $ref chains that fan out, or split the step's output.",
      );
      return {};
    }
    if (!isPlainObject(node)) return node;
    const { file, chain } = context;
    const depth = context.depth + 1;
    const out: Record<string, JsonValue> = {};
    // Keys, then a lookup: an own `__proto__` key reads as the data it is, and no entry pairs
    // are allocated per node.
    for (const keyword of Object.keys(node)) {
      if (keyword === "$ref" || DROPPED_KEYWORDS.has(keyword)) continue;
      const value = node[keyword] as JsonValue;
      const place: Place = { parent: context.place, key: keyword };
      if (SCHEMA_MAP_KEYWORDS.has(keyword) && isPlainObject(value)) {
        const map: Record<string, JsonValue> = {};
        for (const name of Object.keys(value)) {
          const child = value[name] as JsonValue;
          const at: Place = { parent: place, key: name };
          setEntry(map, name, this.inline(child, { file, place: at, chain, depth }));
        }
        setEntry(out, keyword, map);
      } else if (
        (SCHEMA_LIST_KEYWORDS.has(keyword) || keyword === "items") &&
        Array.isArray(value)
      ) {
        setEntry(
          out,
          keyword,
          value.map((child, index) =>
            this.inline(child, { file, place: { parent: place, key: index }, chain, depth }),
          ),
        );
      } else if (SCHEMA_KEYWORDS.has(keyword)) {
        setEntry(out, keyword, this.inline(value, { file, place, chain, depth }));
      } else {
        setEntry(out, keyword, value);
      }
    }
    if (!Object.hasOwn(node, "$ref")) return out;
    const target = this.follow(node.$ref, context);
    const siblings = Object.keys(out);
    if (siblings.length === 0) return target;
    if (isPlainObject(target) && siblings.every((keyword) => ANNOTATION_KEYWORDS.has(keyword))) {
      return { ...target, ...out };
    }
    return { allOf: [target], ...out };
  }

  private follow(ref: unknown, context: Context): JsonValue {
    const at = (): string => `${placePath(context.place)}.$ref`;
    if (typeof ref !== "string") {
      this.fileProblem(
        "SR-LOAD-008",
        context.file,
        at(),
        `$ref must be a string, but is ${JSON.stringify(ref)}.`,
        'Write "$ref": "#/$defs/<name>" or "<file>.json#/$defs/<name>".',
      );
      return {};
    }
    const file = refTargetFile(ref, context.file);
    const hash = ref.indexOf("#");
    const fragment = hash === -1 ? "" : ref.slice(hash + 1);
    const pointer = fragmentToPointer(fragment);
    const segments = pointer === undefined ? undefined : parseJsonPointer(pointer);
    if (file === undefined || segments === undefined) {
      this.fileProblem(
        "SR-LOAD-008",
        context.file,
        at(),
        `$ref "${cutShort(ref)}" (step "${this.options.stepId}") cannot be resolved offline: only relative files and "#/…" JSON pointers are supported.`,
        'Write the ref as "#/$defs/<name>" or "<file>.json#/$defs/<name>" relative to this file.',
      );
      return {};
    }
    if (!isInside(this.options.root, file)) {
      this.fileProblem(
        "SR-LOAD-007",
        context.file,
        at(),
        `$ref "${cutShort(ref)}" (step "${this.options.stepId}") points outside the agent folder.`,
        "Copy the shared schema into the agent folder and refer to it relatively.",
      );
      return {};
    }
    const key = `${file}#${formatJsonPointer(segments)}`;
    const repeated = context.chain.indexOf(key);
    if (repeated !== -1) {
      const cycle = [...context.chain.slice(repeated), key].map((entry) => this.displayKey(entry));
      this.fileProblem(
        "SR-LOAD-009",
        context.file,
        at(),
        `$ref cycle in the output schema of step "${this.options.stepId}": ${cycle.join(" → ")}.`,
        "A step's output schema must be finite: replace the recursive $ref with a bounded shape (e.g. a fixed number of levels, or a plain object).",
      );
      return {};
    }
    const document = this.options.documents.get(file);
    if (document === undefined || !document.ok) {
      this.fileProblem(
        document?.code ?? "SR-LOAD-001",
        context.file,
        at(),
        `$ref "${cutShort(ref)}" (step "${this.options.stepId}") names ${this.display(file)}, which ${document?.ok === false ? document.reason : "does not exist"}.`,
        document?.ok === false && document.hint !== undefined
          ? document.hint
          : `Create ${this.display(file)} or correct the ref (it is relative to ${this.display(context.file)}).`,
      );
      return {};
    }
    const target = resolveJsonPointer(document.value, segments);
    if (target === undefined) {
      this.fileProblem(
        "SR-LOAD-008",
        context.file,
        at(),
        `$ref "${cutShort(ref)}" (step "${this.options.stepId}") points to ${cutShort(pointerToJsonPath(segments))} in ${this.display(file)}, which does not exist.`,
        "Correct the pointer; it is resolved in the file the ref names (this file when it names none).",
      );
      return {};
    }
    return this.inline(target, {
      file,
      place: { segments },
      chain: [...context.chain, key],
      depth: context.depth + 1,
    });
  }

  private display(file: string): string {
    const relative = path.relative(this.options.root, file);
    return relative === "" ? "." : relative.split(path.sep).join("/");
  }

  private displayKey(key: string): string {
    const hash = key.indexOf("#");
    return `${this.display(key.slice(0, hash))}#${key.slice(hash + 1)}`;
  }

  private fileProblem(code: string, file: string, at: string, message: string, hint: string): void {
    const id = `${code}\u0000${file}\u0000${at}\u0000${message}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.problems.push({ code, severity: "error", message, file, path: at, hint });
  }

  private registryProblem(code: string, at: string, message: string, hint: string): void {
    this.problems.push({
      code,
      severity: "error",
      message,
      ...(this.options.registryFile === undefined ? {} : { file: this.options.registryFile }),
      path: at,
      hint,
    });
  }
}
