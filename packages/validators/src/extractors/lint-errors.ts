import { stripAnsi } from "../ansi.ts";
import { displayPath, splitLines } from "../paths.ts";

export interface LintError {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly severity: "error" | "warning" | "info";
  /** `no-unused-vars`, `lint/suspicious/noDebugger`; `""` when the tool names none. */
  readonly rule: string;
  readonly message: string;
}

const ESLINT_ROW = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)\s*$/;
const ESLINT_UNIX = /^(.+?):(\d+):(\d+): (.*?) \[(Error|Warning)(?:\/(.+))?\]$/;
const BIOME_HEAD = /^(\S.*?):(\d+):(\d+) ((?:lint\/\S+)|parse|assist\/\S+)(?:\s+FIXABLE)?\s+━+$/;
const DENO_HEAD = /^(error|warning)\[([\w-]+)\]: (.*)$/;
const DENO_AT = /^\s*--> (.+?):(\d+):(\d+)$/;

function severityOf(marker: string): LintError["severity"] {
  if (marker === "×" || marker === "✖") return "error";
  if (marker === "⚠" || marker === "!") return "warning";
  return "info";
}

/**
 * Lint problems from eslint (stylish: a file line, then `  l:c  severity  message  rule`; and
 * the unix formatter: `file:l:c: message [Error/rule]`), biome (`file:l:c lint/… ━━━` followed by
 * `× message`) and deno lint (`error[rule]: message` followed by `--> file:l:c`). Biome's `format`
 * diagnostics are not lint problems; parseFormatOutput reports them.
 */
export function parseLintErrors(stdout: string, stderr = "", cwd?: string): LintError[] {
  const lines = splitLines(stripAnsi(`${stdout}\n${stderr}`));
  const problems: LintError[] = [];
  let stylishFile: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;

    const unix = ESLINT_UNIX.exec(line);
    if (unix) {
      problems.push({
        file: displayPath(unix[1] as string, cwd),
        line: Number(unix[2]),
        column: Number(unix[3]),
        severity: unix[5] === "Warning" ? "warning" : "error",
        rule: unix[6] ?? "",
        message: unix[4] as string,
      });
      continue;
    }

    const biome = BIOME_HEAD.exec(line);
    if (biome) {
      let message = "";
      let severity: LintError["severity"] = "error";
      for (let inner = index + 1; inner < lines.length && inner <= index + 4; inner++) {
        const detail = /^\s+([×✖⚠!ℹi]) (.+)$/.exec(lines[inner] as string);
        if (detail) {
          severity = severityOf(detail[1] as string);
          message = (detail[2] as string).trim();
          break;
        }
      }
      problems.push({
        file: displayPath(biome[1] as string, cwd),
        line: Number(biome[2]),
        column: Number(biome[3]),
        severity,
        rule: biome[4] as string,
        message,
      });
      stylishFile = undefined;
      continue;
    }

    const deno = DENO_HEAD.exec(line);
    if (deno) {
      let where: RegExpExecArray | null = null;
      for (let inner = index + 1; inner < lines.length && inner <= index + 3; inner++) {
        where = DENO_AT.exec(lines[inner] as string);
        if (where) break;
      }
      if (where) {
        problems.push({
          file: displayPath(where[1] as string, cwd),
          line: Number(where[2]),
          column: Number(where[3]),
          severity: deno[1] === "warning" ? "warning" : "error",
          rule: deno[2] as string,
          message: deno[3] as string,
        });
      }
      continue;
    }

    // eslint stylish: an unindented path line starts a block of indented rows.
    if (/^\S/.test(line) && !/^[✖✔]/.test(line)) {
      stylishFile = line.trim();
      continue;
    }
    const row = ESLINT_ROW.exec(line);
    if (row && stylishFile !== undefined) {
      // Message and rule are separated by two or more spaces; a row without a rule (a parsing
      // error) has only the message.
      const rest = row[4] as string;
      const split = /^(.*\S)\s{2,}([@\w/.-]+)$/.exec(rest);
      problems.push({
        file: displayPath(stylishFile, cwd),
        line: Number(row[1]),
        column: Number(row[2]),
        severity: row[3] === "warning" ? "warning" : "error",
        rule: split ? (split[2] as string) : "",
        message: split ? (split[1] as string) : rest,
      });
    }
  }
  return problems;
}
