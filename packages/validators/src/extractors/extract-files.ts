import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { stripAnsi } from "../ansi.ts";
import { displayPath, pushUnique, splitLines, unquoteGitPath } from "../paths.ts";

// Only these extensions count: prose is full of `word.word` (`Object.is`, `e.g`), and a file a
// retry prompt should point at is nearly always source, config, docs or data.
const EXTENSIONS = [
  "tsx",
  "ts",
  "mts",
  "cts",
  "jsx",
  "js",
  "mjs",
  "cjs",
  "jsonc",
  "json",
  "mdx",
  "md",
  "pyi",
  "py",
  "go",
  "rs",
  "java",
  "kts",
  "kt",
  "rb",
  "php",
  "cpp",
  "cxx",
  "cc",
  "hpp",
  "c",
  "h",
  "cs",
  "swift",
  "scala",
  "sh",
  "bash",
  "zsh",
  "scss",
  "sass",
  "less",
  "css",
  "html",
  "htm",
  "vue",
  "svelte",
  "astro",
  "yaml",
  "yml",
  "toml",
  "ini",
  "cfg",
  "txt",
  "sql",
  "graphql",
  "gql",
  "proto",
  "lock",
  "xml",
  "csv",
  "dart",
  "exs",
  "ex",
  "erl",
  "hs",
  "lua",
  "tf",
  "snap",
].join("|");

const TOKEN = new RegExp(
  `(?<![\\w@.+~/-])((?:\\.{1,2}/|/)?(?:[\\w@.+~-]+/)*[\\w@.+~-]*\\.(?:${EXTENSIONS}))(?![\\w-])`,
  "g",
);
// A path at the start of a line followed by a location, as compilers and linters print it:
// `src/user name.ts(4,40): …`, `src/a.ts:3:7 - …`, `tests/test_x.py:9: …`. May hold spaces.
const LOCATED = new RegExp(
  `^\\s*((?:\\.{1,2}/|/)?[\\w@.+~-][\\w@.+~ /-]*\\.(?:${EXTENSIONS}))(?=:\\d|\\(\\d+,\\d+\\))`,
);
const QUOTED = new RegExp(`"((?:[^"\\\\\\n]|\\\\.)*\\.(?:${EXTENSIONS}))"`, "g");
const DIFF_HEADER =
  /^(?:diff --git "?a\/(.+?)"? "?b\/(.+?)"?|--- "?a\/(.+?)"?|\+\+\+ "?b\/(.+?)"?)\t?$/;

/**
 * File paths mentioned in the output (stdout, then stderr), in first-seen order without repeats:
 * tokens with a known source, config, docs or data extension; `file://` URLs; a path that starts
 * a line before a location (`file(l,c)`, `file:l:c`), which may hold spaces when it has a folder
 * part or exists in the working directory; git-quoted paths; and `a/…` `b/…` paths of diff
 * headers without the prefix. Absolute paths inside the working directory become relative;
 * `node_modules/` paths, `node:` internals and web URLs are left out.
 */
export function extractFiles(stdout: string, stderr = "", cwd?: string): string[] {
  const text = stripAnsi(`${stdout}\n${stderr}`)
    .replace(/\bhttps?:\/\/\S+/g, " ")
    .replace(/file:\/\//g, "");
  const files: string[] = [];
  const add = (raw: string): void => {
    const path = raw.trim().replace(/^\.\//, "");
    if (path === "" || path.includes("node_modules/")) return;
    pushUnique(files, displayPath(path, cwd));
  };
  const exists = (path: string): boolean =>
    cwd !== undefined && existsSync(isAbsolute(path) ? path : join(cwd, path));

  for (const original of splitLines(text)) {
    const diff = DIFF_HEADER.exec(original);
    if (diff) {
      for (const part of diff.slice(1)) if (part !== undefined && part !== "/dev/null") add(part);
      continue;
    }
    const rename = /^(?:rename|copy) (?:from|to) (.+)$/.exec(original);
    if (rename) {
      add(unquoteGitPath(rename[1] as string));
      continue;
    }
    let line = original;
    const located = LOCATED.exec(line);
    if (located) {
      const path = (located[1] as string).trim();
      const spaced = path.includes(" ");
      if (!spaced || /^[^ ]*\//.test(path) || exists(path)) {
        add(path);
        line = line.replace(located[1] as string, " ");
      }
    }
    line = line.replace(QUOTED, (_whole, inner: string) => {
      add(unquoteGitPath(`"${inner}"`));
      return " ";
    });
    for (const match of line.matchAll(TOKEN)) {
      const before = line.slice(Math.max(0, (match.index ?? 0) - 5), match.index);
      if (/node:$/.test(before)) continue;
      add(match[1] as string);
    }
  }
  return files;
}
