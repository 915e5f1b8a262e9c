import {
  fail,
  isRecord,
  type JsonValue,
  ok,
  type Problem,
  problem,
  type Result,
} from "@climpt/model";
import { PROMPT_CODES } from "./problems.ts";
import { renderValue } from "./render-value.ts";

/**
 * The small template language of retry prompts, which carry a failure pattern's params
 * (changed files, failing tests, type errors) into the prompt that asks the model to fix them:
 *
 * - `{{name}}`, `{{a.b}}`, `{{list.0}}` / `{{list[0]}}`: a value (objects and arrays as JSON)
 * - `{{#each list}}…{{this}}…{{this.field}}…{{@index}}…{{else}}…{{/each}}` (nests; objects
 *   iterate their values with `{{@key}}`; `else` renders for an empty or missing list)
 * - `{{#if name}}…{{else}}…{{/if}}`; falsy: undefined, null, false, 0, "", empty array
 * - `\{{` writes a literal `{{`
 *
 * A bare name is looked up in the innermost `each` item first and then outwards to the params,
 * so an item's fields and the top-level params are both reachable without `../`.
 */
type PathSegments = readonly string[];

type Node =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "value"; readonly path: PathSegments; readonly source: string }
  | {
      readonly kind: "each" | "if";
      readonly path: PathSegments;
      readonly source: string;
      readonly body: readonly Node[];
      readonly otherwise: readonly Node[];
    };

interface OpenBlock {
  readonly kind: "each" | "if";
  readonly path: PathSegments;
  readonly source: string;
  readonly offset: number;
  body: Node[];
  otherwise: Node[] | undefined;
}

export interface RetryTemplateOptions {
  /** The template file, for problems. */
  readonly file?: string | undefined;
  /** The file line on which the template starts (after frontmatter); default 1. */
  readonly firstLine?: number | undefined;
  /**
   * Applied to the template's own text between tags, never to inserted values. The resolver
   * uses it to fill `{uv-*}` placeholders without touching text that came from params.
   */
  readonly literal?: ((text: string) => string) | undefined;
}

export interface RenderedRetryTemplate {
  readonly text: string;
  /** Value references that had no value (rendered as empty text), e.g. `changedFiles`. */
  readonly missing: readonly string[];
}

const PATH_SYNTAX = /^(?:@index|@key|[A-Za-z_$][\w$-]*(?:\.[\w$-]+|\[\d+\])*)$/;

/** Checks a template's syntax without rendering it (for load-time validation). */
export function checkRetryTemplate(
  template: string,
  options: RetryTemplateOptions = {},
): Result<void> {
  const parsed = parse(template, options);
  return parsed.ok ? ok(undefined) : parsed;
}

export function renderRetryTemplate(
  template: string,
  params: Readonly<Record<string, JsonValue | undefined>>,
  options: RetryTemplateOptions = {},
): Result<RenderedRetryTemplate> {
  const parsed = parse(template, options);
  if (!parsed.ok) return parsed;
  const missing: string[] = [];
  const root: Frame = { item: params as JsonValue };
  const text = renderNodes(parsed.value, [root], missing, options.literal ?? ((t) => t));
  return ok({ text, missing });
}

// --- parsing ------------------------------------------------------------------------------------

function parse(template: string, options: RetryTemplateOptions): Result<readonly Node[]> {
  const at = (offset: number, message: string, hint: string): Problem =>
    problem(PROMPT_CODES.retryTemplateSyntax, message, {
      file: options.file,
      path: position(template, offset, options.firstLine ?? 1),
      hint,
    });

  const top: Node[] = [];
  const stack: OpenBlock[] = [];
  const current = (): Node[] => {
    const block = stack[stack.length - 1];
    if (!block) return top;
    return block.otherwise ?? block.body;
  };
  let text = "";
  const flush = (): void => {
    if (text !== "") current().push({ kind: "text", text });
    text = "";
  };

  let cursor = 0;
  while (cursor < template.length) {
    const open = template.indexOf("{{", cursor);
    if (open === -1) {
      text += template.slice(cursor);
      break;
    }
    if (open > 0 && template[open - 1] === "\\") {
      text += `${template.slice(cursor, open - 1)}{{`;
      cursor = open + 2;
      continue;
    }
    text += template.slice(cursor, open);
    const close = template.indexOf("}}", open + 2);
    if (close === -1) {
      return fail([
        at(
          open,
          "A {{ tag is never closed with }}.",
          "Close the tag, or write \\{{ for literal braces.",
        ),
      ]);
    }
    const tag = template.slice(open + 2, close).trim();
    cursor = close + 2;
    flush();

    if (tag.startsWith("#")) {
      const [keyword, ...rest] = tag.slice(1).trim().split(/\s+/);
      const source = rest.join(" ");
      if (keyword !== "each" && keyword !== "if") {
        return fail([
          at(
            open,
            `Unknown block {{#${keyword ?? ""}}}.`,
            "Only {{#each list}} and {{#if name}} blocks exist.",
          ),
        ]);
      }
      const path = parsePath(source);
      if (rest.length !== 1 || path === undefined) {
        return fail([
          at(
            open,
            `{{#${keyword}}} needs exactly one name, got ${JSON.stringify(source)}.`,
            `Write {{#${keyword} name}}, e.g. {{#${keyword} changedFiles}}.`,
          ),
        ]);
      }
      stack.push({ kind: keyword, path, source, offset: open, body: [], otherwise: undefined });
      continue;
    }
    if (tag.startsWith("/")) {
      const keyword = tag.slice(1).trim();
      const block = stack.pop();
      if (!block) {
        return fail([
          at(
            open,
            `{{/${keyword}}} closes a block that was never opened.`,
            "Remove it, or add the matching {{#…}} before it.",
          ),
        ]);
      }
      if (block.kind !== keyword) {
        return fail([
          at(
            open,
            `{{/${keyword}}} closes {{#${block.kind} ${block.source}}} opened at ${position(template, block.offset, options.firstLine ?? 1)}.`,
            `Close the inner block first with {{/${block.kind}}}.`,
          ),
        ]);
      }
      current().push({
        kind: block.kind,
        path: block.path,
        source: block.source,
        body: block.body,
        otherwise: block.otherwise ?? [],
      });
      continue;
    }
    if (tag === "else") {
      const block = stack[stack.length - 1];
      if (!block) {
        return fail([
          at(open, "{{else}} outside of an {{#if}} or {{#each}} block.", "Move it inside a block."),
        ]);
      }
      if (block.otherwise !== undefined) {
        return fail([
          at(
            open,
            `A second {{else}} in {{#${block.kind} ${block.source}}}.`,
            "A block has at most one {{else}}.",
          ),
        ]);
      }
      block.otherwise = [];
      continue;
    }
    const path = parsePath(tag);
    if (path === undefined) {
      return fail([
        at(
          open,
          `{{${tag}}} is not a value reference.`,
          "Write a name or dot path such as {{changedFiles}} or {{this.file}}.",
        ),
      ]);
    }
    current().push({ kind: "value", path, source: tag });
  }
  flush();

  const unclosed = stack[stack.length - 1];
  if (unclosed) {
    return fail([
      at(
        unclosed.offset,
        `{{#${unclosed.kind} ${unclosed.source}}} is never closed.`,
        `Add {{/${unclosed.kind}}} where the block ends.`,
      ),
    ]);
  }
  return ok(top);
}

function parsePath(source: string): PathSegments | undefined {
  if (!PATH_SYNTAX.test(source)) return undefined;
  return source
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter((segment) => segment !== "");
}

/** `line 3, column 7` in file terms. */
function position(template: string, offset: number, firstLine: number): string {
  const before = template.slice(0, offset);
  const line = before.split("\n").length - 1 + firstLine;
  const column = offset - (before.lastIndexOf("\n") + 1) + 1;
  return `line ${line}, column ${column}`;
}

// --- rendering ------------------------------------------------------------------------------------

interface Frame {
  readonly item: JsonValue;
  readonly index?: number;
  readonly key?: string;
}

function renderNodes(
  nodes: readonly Node[],
  frames: readonly Frame[],
  missing: string[],
  literal: (text: string) => string,
): string {
  let out = "";
  for (const node of nodes) {
    switch (node.kind) {
      case "text":
        out += literal(node.text);
        break;
      case "value": {
        const value = lookup(node.path, frames);
        if (value === undefined) {
          if (!missing.includes(node.source)) missing.push(node.source);
        } else {
          out += renderValue(value);
        }
        break;
      }
      case "if":
        out += renderNodes(
          isTruthy(lookup(node.path, frames)) ? node.body : node.otherwise,
          frames,
          missing,
          literal,
        );
        break;
      case "each": {
        const value = lookup(node.path, frames);
        const items = eachItems(value);
        if (items.length === 0) {
          out += renderNodes(node.otherwise, frames, missing, literal);
          break;
        }
        for (const frame of items)
          out += renderNodes(node.body, [...frames, frame], missing, literal);
        break;
      }
    }
  }
  return out;
}

function eachItems(value: JsonValue | undefined): readonly Frame[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map((item, index) => ({ item, index }));
  if (typeof value === "object") {
    return Object.entries(value).map(([key, item], index) => ({ item, index, key }));
  }
  // A single value where a list was expected (an extractor found one match): one iteration.
  return [{ item: value, index: 0 }];
}

function lookup(path: PathSegments, frames: readonly Frame[]): JsonValue | undefined {
  const [head, ...rest] = path;
  const innermost = frames[frames.length - 1] as Frame;
  if (head === "@index") return innermost.index;
  if (head === "@key") return innermost.key;
  if (head === "this") return walk(innermost.item, rest);
  for (let i = frames.length - 1; i >= 0; i--) {
    const item = (frames[i] as Frame).item;
    if (isRecord(item) && head !== undefined && Object.hasOwn(item, head)) {
      return walk(item[head] as JsonValue, rest);
    }
  }
  return undefined;
}

function walk(value: JsonValue | undefined, path: PathSegments): JsonValue | undefined {
  let current = value;
  for (const segment of path) {
    if (Array.isArray(current)) {
      current = /^\d+$/.test(segment) ? current[Number(segment)] : undefined;
    } else if (isRecord(current) && Object.hasOwn(current, segment)) {
      current = current[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

function isTruthy(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === "") {
    return false;
  }
  return !(Array.isArray(value) && value.length === 0);
}
