/**
 * Every code this package emits, in one place so the README table and the code cannot drift.
 * PR-C3L-* are about finding and reading a prompt file; PR-RESOLVE-* about filling it in.
 */
export const PROMPT_CODES = {
  /** A path (or a value that becomes one) has a `..` segment. */
  traversal: "PR-C3L-001",
  /** A path is absolute (`/x`, `C:\x`, `C:/x`, `\\server\x`). */
  absolute: "PR-C3L-002",
  /** A path contains a NUL byte. */
  nulByte: "PR-C3L-003",
  /** No candidate file exists and there is no fallbackKey. */
  notFound: "PR-C3L-004",
  /** The fallbackKey names no built-in template. */
  unknownFallbackKey: "PR-C3L-005",
  /** A path contains a backslash (a separator on Windows, a trick elsewhere). */
  backslash: "PR-C3L-006",
  /** A symlink on the way leads outside the prompt root. */
  symlinkEscape: "PR-C3L-007",
  /** A c1/c2/c3/edition/adaptation value is empty or not a single path segment. */
  badComponent: "PR-C3L-008",
  /** The file exists but cannot be read (a directory, no permission, a symlink loop). */
  unreadable: "PR-C3L-009",
  /** A pathTemplate uses a placeholder nothing fills, or a path reference is empty. */
  badTemplate: "PR-C3L-010",
  /** A retry override was asked for on a path-referenced step without c2 and c3. */
  overrideNeedsC3l: "PR-C3L-011",
  /** The system prompt file (`systemPromptPath`) does not exist. */
  systemPromptMissing: "PR-C3L-012",
  /** A failure pattern's retry prompt does not exist (misnamed, or missing with no fallback). */
  retryPromptMissing: "PR-C3L-013",
  /** The step id is not in the registry. */
  unknownStep: "PR-RESOLVE-001",
  /** A declared `uvVariables` entry has no value in any channel. */
  declaredMissing: "PR-RESOLVE-003",
  /** A `usesStdin` step was resolved without stdin text. */
  stdinMissing: "PR-RESOLVE-004",
  /** A `{uv-name}` placeholder that no channel supplies. */
  placeholderMissing: "PR-RESOLVE-005",
  /** The retry template has a syntax error (unclosed or mismatched block, unclosed tag). */
  retryTemplateSyntax: "PR-RESOLVE-006",
  /** The system prompt holds a `{uv-*}` placeholder; the system prompt is sent as written. */
  systemPromptPlaceholder: "PR-RESOLVE-007",
} as const;

export type PromptCode = (typeof PROMPT_CODES)[keyof typeof PROMPT_CODES];
