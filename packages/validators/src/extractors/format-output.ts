import { stripAnsi } from "../ansi.ts";
import { displayPath, pushUnique, splitLines } from "../paths.ts";

const BIOME_FORMAT = /^(\S.*?) format\s+━+$/;
const PRETTIER_WARN = /^\[warn\] (.+)$/;
const PRETTIER_SUMMARY = /^Code style issues (?:found|were found) /;
const DENO_FROM = /^from (.+):$/;
// Commands whose output is one path per line (`prettier -l` / `--list-different`, `gofmt -l`):
// only then are bare lines taken as paths, since any other output has lines that are not.
const LISTING_COMMAND = /--list-different|(?:^|\s)-l(?:\s|$)/;

/**
 * The files a formatter would change: biome `format`/`check`/`ci` (`file format ━━━`),
 * `prettier --check` (`[warn] file`), `prettier --list-different` / `gofmt -l` (one path per
 * line, recognised from the command), and `deno fmt --check` (`from /abs/file:`).
 */
export function parseFormatOutput(
  stdout: string,
  stderr = "",
  cwd?: string,
  command?: string,
): string[] {
  const lines = splitLines(stripAnsi(`${stdout}\n${stderr}`));
  const files: string[] = [];
  for (const line of lines) {
    const biome = BIOME_FORMAT.exec(line);
    if (biome) {
      pushUnique(files, displayPath(biome[1] as string, cwd));
      continue;
    }
    const warn = PRETTIER_WARN.exec(line);
    if (warn && !PRETTIER_SUMMARY.test(warn[1] as string)) {
      pushUnique(files, displayPath((warn[1] as string).trim(), cwd));
      continue;
    }
    const deno = DENO_FROM.exec(line);
    if (deno) pushUnique(files, displayPath(deno[1] as string, cwd));
  }
  if (files.length === 0 && command !== undefined && LISTING_COMMAND.test(command)) {
    for (const line of splitLines(stripAnsi(stdout))) {
      const path = line.trim();
      if (path !== "" && !/\s{2,}|: /.test(path)) pushUnique(files, displayPath(path, cwd));
    }
  }
  return files;
}
