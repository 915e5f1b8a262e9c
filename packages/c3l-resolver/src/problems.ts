/**
 * Every code this package emits, in one place so the README table and the code cannot drift.
 * PR-C3L-* are about finding and reading a prompt file; PR-RESOLVE-* about filling it in.
 */
export const PROMPT_CODES = {
  /**
   * A path (or a value that becomes one) has a `..` segment. Example: `The prompt path
   * "../secrets.md" has a ".." segment and could leave the prompt folder.` Fix: Keep prompt paths
   * inside the prompts folder.
   */
  traversal: "PR-C3L-001",
  /**
   * A path is absolute (`/x`, `C:\x`, `C:/x`, `\\server\x`). Example: `The prompt path "/etc/motd"
   * is absolute; prompt paths must stay inside the prompt folder.` Fix: Write it relative to the
   * prompts folder.
   */
  absolute: "PR-C3L-002",
  /**
   * A path contains a NUL byte. Example: `The prompt path "a\u0000b" contains a NUL byte.` Fix:
   * Remove it.
   */
  nulByte: "PR-C3L-003",
  /**
   * No candidate file exists and there is no fallbackKey. Example: `No prompt file found for step
   * "initial.issue"; tried …/steps/initial/issue/f_default_bug.md,
   * …/steps/initial/issue/f_default.md.` Fix: Create one of the files, or give the step a
   * `fallbackKey`.
   */
  notFound: "PR-C3L-004",
  /**
   * The fallbackKey names no built-in template. Example: `No fallback prompt found for key:
   * "initial_isue" (step: initial.issue)` Fix: Use a key the c3l-resolver README lists, or write
   * the prompt file.
   */
  unknownFallbackKey: "PR-C3L-005",
  /**
   * A path contains a backslash (a separator on Windows, a trick elsewhere). Example: `The prompt
   * path "steps\initial.md" contains a backslash; use "/" as the only separator.` Fix: Use `/`.
   */
  backslash: "PR-C3L-006",
  /**
   * A symlink on the way leads outside the prompt root. Example: `The prompt path … goes through
   * the symlink …, which leads outside the prompt folder (to /home/me/notes).` Fix: Copy the file
   * into the prompts folder instead of linking it.
   */
  symlinkEscape: "PR-C3L-007",
  /**
   * A c1/c2/c3/edition/adaptation value is empty or not a single path segment. Example: `The
   * adaptation "a/b" is not a single path segment.` Fix: Use one segment (no `/`).
   */
  badComponent: "PR-C3L-008",
  /**
   * The file exists but cannot be read (a directory, no permission, a symlink loop). Example:
   * `Cannot read the prompt file …/f_default.md (EACCES).` Fix: Make it a readable file.
   */
  unreadable: "PR-C3L-009",
  /**
   * A pathTemplate uses a placeholder nothing fills, or a path reference is empty. Example: `The
   * pathTemplate "{c1}/{c2}/{c4}.md" uses {c4}, which nothing fills here.` Fix: Use `{c1}`, `{c2}`,
   * `{c3}`, `{edition}`, `{adaptation}` only.
   */
  badTemplate: "PR-C3L-010",
  /**
   * A retry override was asked for on a path-referenced step without c2 and c3. Example: `Step
   * "closure.issue" names its prompt by path, so a retry variant (edition "failed") needs c2 and c3
   * to build a C3L path.` Fix: Give the closure step `c2` and `c3`.
   */
  overrideNeedsC3l: "PR-C3L-011",
  /**
   * The system prompt file (`systemPromptPath`) does not exist. Example: `The system prompt
   * /repo/.agent/fix/prompts/sytem.md does not exist.` Fix: Create the file, or point
   * `systemPromptPath` at the file that holds the agent's role.
   */
  systemPromptMissing: "PR-C3L-012",
  /**
   * A failure pattern's retry prompt does not exist (misnamed, or missing with no fallback).
   * Example: `The failure pattern "git-dirty" (validator "git-clean" of closure step
   * "closure.done") has no retry prompt file (tried …/retry/done/f_failed_git-dirty.md,
   * …/f_failed.md), so the built-in retry text is sent when it fails.` Fix: Create the file (or
   * rename the misnamed one the hint names), or add `"fallback": "built-in"` to the pattern.
   */
  retryPromptMissing: "PR-C3L-013",
  /**
   * The step id is not in the registry. Example: `There is no step "initial.isue" in the registry.`
   * Fix: Pass an existing step id.
   */
  unknownStep: "PR-RESOLVE-001",
  /**
   * A declared `uvVariables` entry has no value in any channel. Example: `The UV variable "issue"
   * is declared in uvVariables of step "initial.issue" but no channel supplies a value.` Fix: Pass
   * the parameter (`--issue 12`), or drop the declaration.
   */
  declaredMissing: "PR-RESOLVE-003",
  /**
   * A `usesStdin` step was resolved without stdin text. Example: `Step "initial.issue" reads stdin
   * (usesStdin) but none was given.` Fix: Pipe the input in, or set `usesStdin: false`.
   */
  stdinMissing: "PR-RESOLVE-004",
  /**
   * A `{uv-name}` placeholder that no channel supplies. Example: `The prompt of step
   * "initial.issue" uses {uv-isue}, which no parameter, runtime variable or handoff value
   * supplies.` Fix: Fix the name (the hint says "Did you mean {uv-issue}? (parameter issue,
   * --issue)"), declare the parameter, or hand the value off from an earlier step.
   */
  placeholderMissing: "PR-RESOLVE-005",
  /**
   * The retry template has a syntax error (unclosed or mismatched block, unclosed tag). Example:
   * `{{/if}} closes a block that was never opened.` Fix: Close the block the message names.
   */
  retryTemplateSyntax: "PR-RESOLVE-006",
  /**
   * The system prompt holds a `{uv-*}` placeholder; the system prompt is sent as written. Example:
   * `The system prompt …/prompts/system.md uses {uv-issue}, but the system prompt is sent as
   * written: placeholders are not filled there.` Fix: Move the placeholder into a step prompt.
   */
  systemPromptPlaceholder: "PR-RESOLVE-007",
} as const;

export type PromptCode = (typeof PROMPT_CODES)[keyof typeof PROMPT_CODES];
