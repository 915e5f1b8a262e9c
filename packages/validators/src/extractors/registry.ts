import type { ExtractorName, JsonValue } from "@climpt/model";
import { parseBranchName, parseRemoteStatus } from "./branch.ts";
import { generateDiff } from "./diff.ts";
import { extractFiles } from "./extract-files.ts";
import { parseFormatOutput } from "./format-output.ts";
import { filesToCommit, stagedFiles, unstagedFiles } from "./git-status.ts";
import { parseLintErrors } from "./lint-errors.ts";
import { parseMergeStatus } from "./merge-status.ts";
import { parseTestOutput } from "./test-output.ts";
import { parseTypeErrors } from "./type-errors.ts";
import type { Extractor } from "./types.ts";

// The parsers return precise interfaces; a param value is plain JSON. Every parser builds its
// values from strings, numbers, booleans, null, arrays and plain objects, with optional fields
// left out rather than set to undefined, so the conversion is only a change of static type.
function json(value: unknown): JsonValue {
  return value as JsonValue;
}

/**
 * Every extractor a validator's `extractParams` may name, keyed by exactly the names in
 * `EXTRACTOR_NAMES` (the type makes a missing or extra key a compile error; a test checks too).
 * Git status extractors read stdout only (git's warnings go to stderr and are not status lines);
 * the others read stdout followed by stderr.
 */
export const EXTRACTORS: Readonly<Record<ExtractorName, Extractor>> = {
  // Without untracked dependency and build folders: a retry prompt must not ask to commit them.
  parseChangedFiles: ({ stdout }) => filesToCommit(stdout, "changed"),
  parseUntrackedFiles: ({ stdout }) => filesToCommit(stdout, "untracked"),
  parseStagedFiles: ({ stdout }) => stagedFiles(stdout),
  parseUnstagedFiles: ({ stdout }) => unstagedFiles(stdout),
  parseTestOutput: ({ stdout, stderr, cwd }) => json(parseTestOutput(stdout, stderr, cwd)),
  parseTypeErrors: ({ stdout, stderr, cwd }) => json(parseTypeErrors(stdout, stderr, cwd)),
  parseLintErrors: ({ stdout, stderr, cwd }) => json(parseLintErrors(stdout, stderr, cwd)),
  parseFormatOutput: ({ stdout, stderr, cwd, command }) =>
    parseFormatOutput(stdout, stderr, cwd, command),
  generateDiff: (input) => generateDiff(input),
  extractFiles: ({ stdout, stderr, cwd }) => extractFiles(stdout, stderr, cwd),
  parseBranchName: ({ stdout }) => parseBranchName(stdout),
  parseRemoteStatus: ({ stdout }) => json(parseRemoteStatus(stdout)),
  parseMergeStatus: ({ stdout, stderr, command }) =>
    json(parseMergeStatus(stdout, stderr, command)),
  stdout: ({ stdout }) => stdout.trimEnd(),
  stderr: ({ stderr }) => stderr.trimEnd(),
  exitCode: ({ exitCode }) => exitCode,
};
