/**
 * Whether a `--jq` or `--template` expression could read what the real gh (outside the sandbox)
 * can: its environment (gojq's `$ENV` and `env`, with the token in it), more input (`input`,
 * `inputs`), files (`import` / `include` of modules), the program's location (`$__loc__`,
 * `input_filename`). gh's Go templates have no such function, but the same words are refused
 * there too rather than trusting a template function list that may grow.
 *
 * The check is on words, not on a parse: every identifier-shaped word in the expression, inside
 * strings and comments included, is compared with the refused names, ignoring case. jq has no
 * `eval`, no way to call a function by a computed name, and no escapes outside strings, so an
 * expression that reaches the environment must spell one of these words in full; `$ ENV`, `$#…`
 * line breaks and string interpolation `"\(env)"` all still contain it. A harmless expression
 * that merely contains such a word (`.env`, `"input"`) is refused too: the model is told to pipe
 * the JSON to `jq` inside the sandbox instead. Pure.
 */

const REFUSED_WORDS = new Set([
  "env",
  "input",
  "inputs",
  "input_filename",
  "input_line_number",
  "__loc__",
  "import",
  "include",
  "modulemeta",
  "get_search_list",
  "get_prog_origin",
  "get_jq_origin",
  // Not functions of gojq or of gh's templates today; refused in case a later gh adds them.
  "getenv",
  "environ",
  "exec",
  "readfile",
]);

/** The first refused word the expression contains, or undefined when it has none. */
export function refusedExpressionWord(expression: string): string | undefined {
  for (const match of expression.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    const word = match[0].toLowerCase();
    if (REFUSED_WORDS.has(word)) return match[0];
  }
  return undefined;
}
