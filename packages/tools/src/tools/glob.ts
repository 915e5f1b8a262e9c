import { promises as fs } from "node:fs";
import path from "node:path";
import { runPatternJob } from "@climpt/pattern-worker";
import { type BuiltinTool, failure, success } from "../builtin-tool.ts";
import { TOOL_CODES } from "../codes.ts";
import { confinePath } from "../confine-path.ts";
import { globToRegExp, literalPrefix } from "../glob-pattern.ts";
import { patternFailure } from "../pattern-failure.ts";
import { capHeadTail } from "../text-cap.ts";
import { defineInput } from "../tool-input.ts";
import { walkFiles } from "../walk.ts";

export const MAX_GLOB_RESULTS = 1000;
export const MAX_WALK_ENTRIES = 200_000;

const input = defineInput({
  pattern: {
    type: "string",
    required: true,
    nonEmpty: true,
    description:
      "Glob pattern relative to `path`: `*` and `?` within a name, `**` for any number of directories, `[abc]`, `{ts,tsx}`. Example: `src/**/*.ts`.",
  },
  path: {
    type: "string",
    description:
      "Directory to search in, relative to the working directory. Default: the working directory.",
  },
});

export const globTool: BuiltinTool = {
  name: "Glob",
  description: [
    "Finds files by name pattern, e.g. `**/*.ts` or `src/**/test_*.py`, and lists their paths relative to the working directory, sorted.",
    "`*` does not cross `/`: use `**/` to search subdirectories.",
    `At most ${MAX_GLOB_RESULTS} paths are listed. .git and node_modules are searched only when the pattern names them.`,
    "Symbolic links to directories are not followed.",
  ].join(" "),
  inputSchema: input.schema,
  prepare(raw, context) {
    const parsed = input.parse(raw);
    if (!parsed.ok) return { kind: "invalid", problems: parsed.problems };
    const { pattern } = parsed.value;
    const base = confinePath(context.root, parsed.value.path ?? ".");
    if (!base.ok) return { kind: "refused", code: TOOL_CODES.pathOutside, reason: base.reason };
    if (path.isAbsolute(pattern) || pattern.split("/").includes("..")) {
      return {
        kind: "refused",
        code: TOOL_CODES.pathOutside,
        reason: `the pattern "${pattern}" is absolute or climbs with "..": patterns are relative to \`path\`, inside the working directory.`,
      };
    }
    let matcher: RegExp;
    try {
      matcher = globToRegExp(pattern);
    } catch {
      return { kind: "invalid", problems: [`"${pattern}" is not a valid glob pattern.`] };
    }
    // Start at the pattern's fixed directory part; it must be confined too (it may be a link).
    const prefix = literalPrefix(pattern);
    const start = confinePath(context.root, path.join(base.real, prefix));
    if (!start.ok) return { kind: "refused", code: TOOL_CODES.pathOutside, reason: start.reason };

    return {
      kind: "run",
      async run(signal) {
        const stats = await fs.stat(base.real).catch(() => undefined);
        if (!stats?.isDirectory()) {
          return failure(TOOL_CODES.fileNotFound, `"${base.relative}" is not a directory.`);
        }
        const startStats = await fs.stat(start.real).catch(() => undefined);
        if (!startStats?.isDirectory()) return success(`No files match "${pattern}".`);
        const walked = await walkFiles(start.real, {
          root: context.root,
          skipDirectories: new Set(
            [".git", "node_modules"].filter((name) => !pattern.includes(name)),
          ),
          maxEntries: MAX_WALK_ENTRIES,
        });
        const candidates = walked.files.map((file) => (prefix === "" ? file : `${prefix}/${file}`));
        const matched = await runPatternJob(
          { kind: "filter", source: matcher.source, flags: matcher.flags, items: candidates },
          { timeoutMs: context.patternTimeoutMs, ...(signal === undefined ? {} : { signal }) },
        );
        if (!matched.ok) return patternFailure("glob", pattern, matched);
        const matches = matched.value.map((index) =>
          toRootRelative(base.relative, candidates[index] as string),
        );
        matches.sort();
        if (matches.length === 0) {
          return success(
            `No files match "${pattern}"${walked.truncated ? " in the part of the tree searched" : ""}.`,
          );
        }
        const shown = matches.slice(0, MAX_GLOB_RESULTS);
        const notes: string[] = [];
        if (matches.length > shown.length) {
          notes.push(
            `[${matches.length} files match; showing the first ${shown.length}. Narrow the pattern.]`,
          );
        }
        if (walked.truncated) {
          notes.push(
            `[the search stopped after ${MAX_WALK_ENTRIES} entries; narrow \`path\` or the pattern.]`,
          );
        }
        return success(capHeadTail([...shown, ...notes].join("\n"), context.outputCapBytes).text);
      },
    };
  },
};

export function toRootRelative(baseRelative: string, file: string): string {
  return baseRelative === "." ? file : `${baseRelative}/${file}`;
}
