import { stripAnsi } from "../ansi.ts";
import { displayPath, pushUnique } from "../paths.ts";

// Only these extensions count: prose is full of `word.word` (`Object.is`, `e.g`), and a file a
// retry prompt should point at is nearly always source, config, docs or data.
const EXTENSIONS = [
  "tsx", "ts", "mts", "cts", "jsx", "js", "mjs", "cjs", "jsonc", "json", "mdx", "md", "pyi", "py",
  "go", "rs", "java", "kts", "kt", "rb", "php", "cpp", "cxx", "cc", "hpp", "c", "h", "cs", "swift",
  "scala", "sh", "bash", "zsh", "scss", "sass", "less", "css", "html", "htm", "vue", "svelte",
  "astro", "yaml", "yml", "toml", "ini", "cfg", "txt", "sql", "graphql", "gql", "proto", "lock",
  "xml", "csv", "dart", "exs", "ex", "erl", "hs", "lua", "tf", "snap",
];

const PATH_PATTERN = new RegExp(
  `(?<![\\w@.+~/-])((?:\\.{1,2}/|/)?(?:[\\w@.+~-]+/)*[\\w@.+~-]*\\.(?:${EXTENSIONS.join("|")}))(?![\\w-])`,
  "g",
);

/**
 * File paths mentioned in the output (stdout, then stderr), in first-seen order without repeats:
 * relative and absolute paths with a known source, config, docs or data extension, `file://`
 * URLs, and paths followed by `:line:col` or `(line,col)`. Absolute paths inside the working
 * directory become relative; `node_modules/` paths, `node:` internals and web URLs are left out.
 */
export function extractFiles(stdout: string, stderr = "", cwd?: string): string[] {
  const text = stripAnsi(`${stdout}\n${stderr}`)
    .replace(/\bhttps?:\/\/\S+/g, " ")
    .replace(/file:\/\//g, "");
  const files: string[] = [];
  for (const match of text.matchAll(PATH_PATTERN)) {
    const path = match[1] as string;
    if (path.includes("node_modules/") || /^\.+$/.test(path.split("/").at(-1) ?? "")) continue;
    const before = text.slice(Math.max(0, (match.index ?? 0) - 5), match.index);
    if (/node:$/.test(before)) continue;
    pushUnique(files, displayPath(path, cwd));
  }
  return files;
}
