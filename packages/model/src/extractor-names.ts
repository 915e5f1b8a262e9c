/**
 * Every extractor a validator's `extractParams` may name. The registry loader rejects any other
 * name at load time (an unknown extractor is an error, never a silent null), and
 * @climpt/validators implements exactly this list (a test there holds it to that).
 */
export const EXTRACTOR_NAMES = [
  "parseChangedFiles",
  "parseUntrackedFiles",
  "parseStagedFiles",
  "parseUnstagedFiles",
  "parseTestOutput",
  "parseTypeErrors",
  "parseLintErrors",
  "parseFormatOutput",
  "generateDiff",
  "extractFiles",
  "parseBranchName",
  "parseRemoteStatus",
  "parseMergeStatus",
  "stderr",
  "stdout",
  "exitCode",
] as const;

export type ExtractorName = (typeof EXTRACTOR_NAMES)[number];

export function isExtractorName(name: string): name is ExtractorName {
  return (EXTRACTOR_NAMES as readonly string[]).includes(name);
}

/**
 * The extractors whose values name failures one by one (failing tests, type errors, lint errors,
 * files to format), so the same failure can be looked for on another commit: what a validator's
 * `baseline: "compare"` compares. The git status extractors name the change itself; the rest (a
 * diff, files mentioned anywhere, the raw streams) name no failure.
 */
export const FAILURE_EXTRACTOR_NAMES: readonly ExtractorName[] = [
  "parseTestOutput",
  "parseTypeErrors",
  "parseLintErrors",
  "parseFormatOutput",
];
