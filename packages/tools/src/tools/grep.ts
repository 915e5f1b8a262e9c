import { promises as fs } from "node:fs";
import path from "node:path";
import { runPatternJob } from "@climpt/pattern-worker";
import { type BuiltinTool, failure, success } from "../builtin-tool.ts";
import { TOOL_CODES } from "../codes.ts";
import { confinePath } from "../confine-path.ts";
import { globToRegExp } from "../glob-pattern.ts";
import { patternFailure } from "../pattern-failure.ts";
import { byteLength } from "../text-cap.ts";
import { defineInput } from "../tool-input.ts";
import { walkFiles } from "../walk.ts";
import { MAX_WALK_ENTRIES, toRootRelative } from "./glob.ts";

const DEFAULT_MAX_RESULTS = 200;
/** Files larger than this are not searched (generated bundles, data dumps). */
export const MAX_GREP_FILE_BYTES: number = 5 * 1024 * 1024;
const MAX_LINE_CHARS = 500;

const OUTPUT_MODES = ["files_with_matches", "content", "count"] as const;

const input = defineInput({
  pattern: {
    type: "string",
    required: true,
    nonEmpty: true,
    description:
      "JavaScript regular expression searched for in each line, e.g. `function\\s+load` or `TODO`.",
  },
  path: {
    type: "string",
    description:
      "File or directory to search, relative to the working directory. Default: the working directory.",
  },
  glob: {
    type: "string",
    description:
      "Only search files matching this glob, e.g. `*.ts` or `src/**/*.{ts,tsx}`. A pattern without `/` matches file names in any directory.",
  },
  output_mode: {
    type: "string",
    enum: OUTPUT_MODES,
    description:
      "`files_with_matches` (default): paths of matching files. `content`: matching lines as `path:line:text`. `count`: `path:number of matching lines`.",
  },
  case_insensitive: {
    type: "boolean",
    description: "Match regardless of letter case. Default false.",
  },
  max_results: {
    type: "integer",
    minimum: 1,
    maximum: 10_000,
    description: `Stop after this many result lines. Default ${DEFAULT_MAX_RESULTS}.`,
  },
});

export const grepTool: BuiltinTool = {
  name: "Grep",
  description: [
    "Searches file contents in the working directory with a regular expression (JavaScript syntax) and lists matching files, matching lines or counts.",
    "Skips .git, node_modules, binary files and files over 5 MiB. Results are sorted by path and capped; a note says when there are more.",
  ].join(" "),
  inputSchema: input.schema,
  prepare(raw, context) {
    const parsed = input.parse(raw);
    if (!parsed.ok) return { kind: "invalid", problems: parsed.problems };
    const options = parsed.value;
    let regex: RegExp;
    try {
      regex = new RegExp(options.pattern, options.case_insensitive === true ? "i" : "");
    } catch (error) {
      return {
        kind: "invalid",
        problems: [`"pattern" is not a valid regular expression: ${(error as Error).message}`],
      };
    }
    let fileFilter: { readonly regex: RegExp; readonly byName: boolean } | undefined;
    if (options.glob !== undefined) {
      const glob = options.glob;
      try {
        fileFilter = { regex: globToRegExp(glob), byName: !glob.includes("/") };
      } catch {
        return { kind: "invalid", problems: [`"glob" is not a valid glob pattern: ${glob}`] };
      }
    }
    const base = confinePath(context.root, options.path ?? ".");
    if (!base.ok) return { kind: "refused", code: TOOL_CODES.pathOutside, reason: base.reason };
    const mode = (options.output_mode ?? "files_with_matches") as (typeof OUTPUT_MODES)[number];
    const maxResults = options.max_results ?? DEFAULT_MAX_RESULTS;

    return {
      kind: "run",
      async run(signal) {
        const stats = await fs.stat(base.real).catch(() => undefined);
        if (stats === undefined) {
          return failure(TOOL_CODES.fileNotFound, `"${base.relative}" does not exist.`);
        }
        let files: { real: string; shown: string }[];
        let truncatedWalk = false;
        if (stats.isFile()) {
          files = [{ real: base.real, shown: base.relative }];
        } else {
          const walked = await walkFiles(base.real, {
            root: context.root,
            skipDirectories: new Set([".git", "node_modules"]),
            maxEntries: MAX_WALK_ENTRIES,
          });
          truncatedWalk = walked.truncated;
          let kept = walked.files;
          if (fileFilter !== undefined) {
            const filter = fileFilter;
            const filtered = await runPatternJob(
              {
                kind: "filter",
                source: filter.regex.source,
                flags: filter.regex.flags,
                items: kept.map((file) => (filter.byName ? path.posix.basename(file) : file)),
              },
              { timeoutMs: context.patternTimeoutMs, ...(signal === undefined ? {} : { signal }) },
            );
            if (!filtered.ok) return patternFailure("glob", options.glob ?? "", filtered);
            kept = filtered.value.map((index) => kept[index] as string);
          }
          files = kept.map((file) => ({
            real: path.join(base.real, file),
            shown: toRootRelative(base.relative, file),
          }));
        }

        const searched = await runPatternJob(
          {
            kind: "grep",
            source: regex.source,
            flags: regex.flags,
            files: files.map((file) => file.real),
            firstOnly: mode === "files_with_matches",
            maxLines: mode === "content" ? maxResults + 1 : 0,
            maxLineChars: MAX_LINE_CHARS,
            maxFileBytes: MAX_GREP_FILE_BYTES,
          },
          { timeoutMs: context.patternTimeoutMs, ...(signal === undefined ? {} : { signal }) },
        );
        if (!searched.ok) return patternFailure("pattern", options.pattern, searched);

        const lines: string[] = [];
        let bytes = 0;
        let stoppedAt: string | undefined;
        let skippedLarge = 0;
        search: for (let f = 0; f < files.length; f++) {
          const file = files[f] as { real: string; shown: string };
          const found = searched.value[f];
          if (found === "large") {
            skippedLarge++;
            continue;
          }
          if (found === undefined || found === "skip" || found.count === 0) continue;
          if (mode === "content") {
            for (const [line, text] of found.lines) {
              const row = `${file.shown}:${line}:${text}`;
              if (
                lines.length >= maxResults ||
                bytes + byteLength(row) + 1 > context.outputCapBytes
              ) {
                stoppedAt = `${file.shown}:${line}`;
                break search;
              }
              lines.push(row);
              bytes += byteLength(row) + 1;
            }
            continue;
          }
          const row = mode === "count" ? `${file.shown}:${found.count}` : file.shown;
          if (lines.length >= maxResults || bytes + byteLength(row) + 1 > context.outputCapBytes) {
            stoppedAt = file.shown;
            break;
          }
          lines.push(row);
          bytes += byteLength(row) + 1;
        }

        const notes: string[] = [];
        if (stoppedAt !== undefined) {
          notes.push(
            `[results stopped at ${lines.length} lines (next match: ${stoppedAt}); narrow the pattern, path or glob.]`,
          );
        }
        if (skippedLarge > 0)
          notes.push(`[${skippedLarge} file(s) over ${MAX_GREP_FILE_BYTES} bytes not searched]`);
        if (truncatedWalk)
          notes.push(`[the search stopped after ${MAX_WALK_ENTRIES} entries; narrow \`path\`.]`);
        if (lines.length === 0) {
          return success(
            [`No matches for /${options.pattern}/ in ${base.relative}.`, ...notes].join("\n"),
          );
        }
        return success([...lines, ...notes].join("\n"));
      },
    };
  },
};
