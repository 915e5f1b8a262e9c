/**
 * How `{uv-*}` variables are named and written: the one rule the prompt resolver fills, the
 * loader checks `uvVariables` against and flow analysis reads handoff reads from.
 *
 * - A placeholder is `{uv-<name>}` where the name is letters, digits, `_`, `-` and `.`, starting
 *   with a letter, digit or `_`. Anything else in braces (`{c1}`, `{uv-a b}`, `{uv-$x}`, JSON,
 *   `{{mustache}}`) is not a placeholder and is left as written.
 * - A `uvVariables` entry names a variable with or without the `uv-` prefix.
 * - A handoff value of step `<id>` under key `<key>` is named `<id>_<key>` with every `.` (in the
 *   id and in the key) replaced by `_`. A gate `handoffFields` value whose dot path differs from
 *   its key is also named after the path.
 * - A name is looked up as written, then, when it has a dot, with every `.` replaced by `_`, so
 *   `{uv-initial.issue_plan}` reads `initial_issue_plan`.
 */
import type { JsonValue } from "./json.ts";
import type { HandoffField } from "./model.ts";

/** The variables the runner supplies itself: iteration state and budgets. */
export const RUNTIME_UV_NAMES = [
  "iteration",
  "completed_iterations",
  "completion_keyword",
  "max_iterations",
  "remaining",
  "previous_summary",
  "check_count",
  "max_checks",
] as const;

export type RuntimeUvName = (typeof RUNTIME_UV_NAMES)[number];

export function isRuntimeUvName(name: string): name is RuntimeUvName {
  return (RUNTIME_UV_NAMES as readonly string[]).includes(name);
}

/** The name grammar, as a regular-expression source without anchors. */
export const UV_NAME_PATTERN = "[A-Za-z0-9_][A-Za-z0-9_.-]*";

const PLACEHOLDER = new RegExp(`\\{uv-(${UV_NAME_PATTERN})\\}`, "g");
const WHOLE_NAME = new RegExp(`^${UV_NAME_PATTERN}$`);

/** Whether `name` (without `uv-`) can be written as a placeholder. */
export function isUvName(name: string): boolean {
  return WHOLE_NAME.test(name);
}

export interface UvPlaceholder {
  /** The name inside the braces, as written. */
  readonly name: string;
  /** Offset of the `{` in the text. */
  readonly index: number;
  /** 1-based line in the text. */
  readonly line: number;
}

/** Every `{uv-*}` placeholder in `text`, in order, repeats included. */
export function findUvPlaceholders(text: string): readonly UvPlaceholder[] {
  const found: UvPlaceholder[] = [];
  let line = 1;
  let scanned = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    for (let i = scanned; i < match.index; i++) if (text.charCodeAt(i) === 10) line++;
    scanned = match.index;
    found.push({ name: match[1] as string, index: match.index, line });
  }
  return found;
}

/**
 * Replaces each placeholder for which `textFor` returns text; leaves the others as written. One
 * pass over the original: replacement text is never scanned again.
 */
export function mapUvPlaceholders(
  text: string,
  textFor: (name: string) => string | undefined,
): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => textFor(name) ?? whole);
}

/** The variable a `uvVariables` entry names: the entry without its optional `uv-` prefix. */
export function declaredUvName(entry: string): string {
  return entry.startsWith("uv-") ? entry.slice(3) : entry;
}

/** The names a placeholder or declared name may read, in lookup order. */
export function uvLookupNames(name: string): readonly string[] {
  return name.includes(".") ? [name, name.replaceAll(".", "_")] : [name];
}

/** The variable `name` reads in `variables`, and its value; undefined when none supplies it. */
export function lookupUv(
  variables: Readonly<Record<string, JsonValue>>,
  name: string,
): { readonly name: string; readonly value: JsonValue } | undefined {
  for (const candidate of uvLookupNames(name)) {
    if (Object.hasOwn(variables, candidate)) {
      return { name: candidate, value: variables[candidate] as JsonValue };
    }
  }
  return undefined;
}

/** The name of a handoff value: `initial.issue` + `plan` → `initial_issue_plan`. */
export function handoffUvName(stepId: string, keyOrPath: string): string {
  return `${stepId}_${keyOrPath}`.replaceAll(".", "_");
}

/**
 * Every name under which the runtime supplies a declared handoff field of `stepId`: by its key,
 * and by its dot path when that differs from the key.
 */
export function handoffFieldUvNames(
  stepId: string,
  field: Pick<HandoffField, "key" | "path">,
): readonly string[] {
  const byKey = handoffUvName(stepId, field.key);
  if (field.path === field.key) return [byKey];
  const byPath = handoffUvName(stepId, field.path);
  return byPath === byKey ? [byKey] : [byKey, byPath];
}
