import { isAbsolute, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  a: 0x07,
  b: 0x08,
  t: 0x09,
  n: 0x0a,
  v: 0x0b,
  f: 0x0c,
  r: 0x0d,
  '"': 0x22,
  "\\": 0x5c,
};

/**
 * A path as git prints it, unquoted. Git wraps a path in double quotes when it holds a space
 * (porcelain v1), a control character, a quote, a backslash or, with `core.quotePath` on (the
 * default), any byte above 0x7f, written as C escapes with octal bytes: `"r\303\251sum\303\251"`.
 * The octal bytes are UTF-8, so they are collected as bytes and decoded together.
 */
export function unquoteGitPath(text: string): string {
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return text;
  const body = text.slice(1, -1);
  const bytes: number[] = [];
  for (let index = 0; index < body.length; index++) {
    const char = body[index] as string;
    if (char !== "\\") {
      for (const byte of Buffer.from(char, "utf8")) bytes.push(byte);
      continue;
    }
    const next = body[index + 1];
    if (next === undefined) {
      bytes.push(0x5c);
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(index + 1, index + 4));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8) & 0xff);
      index += 3;
      continue;
    }
    const simple = SIMPLE_ESCAPES[next];
    bytes.push(...(simple === undefined ? Buffer.from(`\\${next}`, "utf8") : [simple]));
    index += 1;
  }
  return Buffer.from(bytes).toString("utf8");
}

/**
 * A path for a retry prompt: `file://` URLs become paths, and an absolute path inside the
 * working directory becomes relative to it (tsc prints relative paths, eslint and deno absolute
 * ones; the model should see one form). Anything else is returned as printed.
 */
export function displayPath(path: string, cwd?: string): string {
  let result = path;
  if (result.startsWith("file://")) {
    try {
      result = fileURLToPath(result);
    } catch {
      return path;
    }
  }
  if (cwd !== undefined && isAbsolute(result) && isAbsolute(cwd)) {
    const inside = relative(cwd, result);
    if (inside !== "" && !inside.startsWith("..") && !isAbsolute(inside)) {
      return sep === "/" ? inside : inside.split(sep).join("/");
    }
  }
  return result;
}

/** Lines of a tool's output, with `\r\n` and lone `\r` (progress redraws) treated as breaks. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** Appends `value` unless it is already there; keeps first-seen order. */
export function pushUnique(list: string[], value: string): void {
  if (value !== "" && !list.includes(value)) list.push(value);
}
