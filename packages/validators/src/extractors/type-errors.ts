import { stripAnsi } from "../ansi.ts";
import { displayPath, splitLines } from "../paths.ts";

export interface TypeCheckError {
  /** Relative to the working directory when inside it; `""` for a project-wide error. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** `TS2322`. */
  readonly code: string;
  readonly message: string;
}

const TSC_PLAIN = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
const TSC_PRETTY = /^(.+?):(\d+):(\d+) - error (TS\d+): (.*)$/;
const TSC_GLOBAL = /^error (TS\d+): (.*)$/;
const DENO_HEAD = /^(?:error: )?(TS\d+) \[ERROR\]: (.*)$/;
const DENO_AT = /^\s+at (.+?):(\d+):(\d+)$/;

/**
 * Type errors from `tsc` (plain `file(l,c): error TSxxxx: …`, `--pretty`
 * `file:l:c - error TSxxxx: …`, and project-wide `error TSxxxx: …`) and `deno check`
 * (`TSxxxx [ERROR]: …` followed by `at file:///…:l:c`). A plain tsc message that continues on
 * indented lines (an elaboration chain) keeps them, joined by newlines.
 */
export function parseTypeErrors(stdout: string, stderr = "", cwd?: string): TypeCheckError[] {
  const lines = splitLines(stripAnsi(`${stdout}\n${stderr}`));
  const errors: TypeCheckError[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const plain = TSC_PLAIN.exec(line) ?? TSC_PRETTY.exec(line);
    if (plain) {
      const [, file, row, column, code, first] = plain as unknown as string[];
      let message = first as string;
      if (TSC_PLAIN.test(line)) {
        while (/^ {2,}\S/.test(lines[index + 1] ?? "")) {
          message += `\n${(lines[index + 1] as string).trim()}`;
          index += 1;
        }
      }
      errors.push({
        file: displayPath(file as string, cwd),
        line: Number(row),
        column: Number(column),
        code: code as string,
        message,
      });
      continue;
    }
    const global = TSC_GLOBAL.exec(line);
    if (global) {
      errors.push({
        file: "",
        line: 0,
        column: 0,
        code: global[1] as string,
        message: global[2] as string,
      });
      continue;
    }
    const deno = DENO_HEAD.exec(line);
    if (deno) {
      let where: RegExpExecArray | null = null;
      for (let inner = index + 1; inner < lines.length && inner <= index + 12; inner++) {
        const candidate = lines[inner] as string;
        if (DENO_HEAD.test(candidate)) break;
        where = DENO_AT.exec(candidate);
        if (where) break;
      }
      errors.push({
        file: where ? displayPath(where[1] as string, cwd) : "",
        line: where ? Number(where[2]) : 0,
        column: where ? Number(where[3]) : 0,
        code: deno[1] as string,
        message: deno[2] as string,
      });
    }
  }
  return errors;
}
