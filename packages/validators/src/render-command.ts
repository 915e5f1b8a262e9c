import { type JsonValue, type Problem, problem } from "@climpt/model";
import { VALIDATOR_CODES } from "./codes.ts";

/**
 * One shell word that `sh` reads back as exactly `value`: single quotes, inside which nothing is
 * special, with each `'` written as `'\''` (close, escaped quote, reopen). Always quoted, even when
 * the value looks harmless, so no value can ever become shell syntax.
 */
export function quoteShellWord(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

// `${name}` is a placeholder; `$${name}` is the escape for a literal `${name}` (a shell variable).
const PLACEHOLDER = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The names of the `${param}` placeholders in a command, in order, without repeats. */
export function commandPlaceholders(command: string): string[] {
  const names: string[] = [];
  for (const match of command.matchAll(PLACEHOLDER)) {
    const name = match[2] as string;
    if (match[1] === "" && !names.includes(name)) names.push(name);
  }
  return names;
}

function shellWords(value: JsonValue): string | undefined {
  if (typeof value === "string") return quoteShellWord(value);
  if (typeof value === "number" || typeof value === "boolean") return quoteShellWord(String(value));
  if (Array.isArray(value)) {
    const words: string[] = [];
    for (const item of value) {
      if (typeof item === "string" || typeof item === "number" || typeof item === "boolean") {
        words.push(quoteShellWord(String(item)));
      } else {
        return undefined;
      }
    }
    return words.join(" ");
  }
  return undefined;
}

/**
 * The rendered command, or why it cannot be rendered: like every failed result of climpt's
 * packages, one `error` Problem after `ok: false` (several placeholders at fault are one problem
 * with the first one's code, naming them all, so a caller reports one thing).
 */
export type RenderResult =
  | { readonly ok: true; readonly command: string }
  | { readonly ok: false; readonly command: string; readonly error: Problem };

/**
 * Fills `${param}` placeholders with shell-quoted params: a string, number or boolean becomes one
 * quoted word, an array of them becomes space-separated quoted words (an empty array, no word). A
 * missing param or a value that is not a word (null, an object, a nested array) is a coded error
 * rather than an empty string, because `rm -rf ${dir}/` with an empty `dir` is a different command.
 */
export function renderCommand(
  template: string,
  params: Readonly<Record<string, JsonValue | undefined>> = {},
  validatorId?: string,
): RenderResult {
  const errors: Problem[] = [];
  const reported = new Set<string>();
  const where = validatorId === undefined ? "" : ` of validator "${validatorId}"`;
  const command = template.replace(PLACEHOLDER, (whole, escaped: string, name: string) => {
    if (escaped === "$") return whole.slice(1);
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (value === undefined) {
      if (!reported.has(name)) {
        reported.add(name);
        errors.push(
          problem(
            VALIDATOR_CODES.missingParam,
            `The command${where} uses \${${name}} but no param "${name}" was given.`,
            {
              hint: `Pass "${name}" in the validation condition's params or the agent parameters; for a shell variable write $${name} or $\${${name}}.`,
            },
          ),
        );
      }
      return whole;
    }
    const words = shellWords(value);
    if (words === undefined) {
      if (reported.has(name)) return whole;
      reported.add(name);
      errors.push(
        problem(
          VALIDATOR_CODES.unquotableParam,
          `Param "${name}"${where} is ${value === null ? "null" : "an object or a nested array"}, which cannot become shell words.`,
          { hint: "Give a string, a number, a boolean, or an array of those." },
        ),
      );
      return whole;
    }
    return words;
  });
  const [first] = errors;
  if (first === undefined) return { ok: true, command };
  const message = errors.map((error) => error.message).join(" ");
  return { ok: false, command, error: { ...first, message } };
}
