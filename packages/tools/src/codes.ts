/**
 * Stable codes this package puts in tool results, events and audit problems. The README lists
 * them with their meaning. They form the `TOOL-*` family: no other code family covers tool calls.
 */
export const TOOL_CODES = {
  /** The tool does not exist in this step (allowedTools, step kind, GitHub integration, unknown name). */
  unavailable: "TOOL-POLICY-001",
  /** `permissionMode: plan` is read-only. */
  planReadOnly: "TOOL-POLICY-002",
  /** A Bash command matches a boundary pattern (issue close, merge, release, `gh api`, force push…). */
  boundaryCommand: "TOOL-POLICY-003",
  /** A path leaves the working directory (`..`, absolute, symbolic link) or enters `.git`. */
  pathOutside: "TOOL-POLICY-004",
  /** The input does not match the tool's input schema. */
  invalidInput: "TOOL-INPUT-001",
  /** The file or directory does not exist, or is the wrong kind of entry. */
  fileNotFound: "TOOL-FILE-001",
  /** The file is binary or too large to show. */
  fileUnreadable: "TOOL-FILE-002",
  /** Edit: `old_string` does not occur in the file. */
  editNoMatch: "TOOL-EDIT-001",
  /** Edit: `old_string` occurs more than once and `replace_all` is not set. */
  editNotUnique: "TOOL-EDIT-002",
  /** Bash: the command ran past its timeout; its process group was killed. */
  bashTimeout: "TOOL-BASH-001",
  /** Bash: the call was aborted; its process group was killed. */
  bashAborted: "TOOL-BASH-002",
  /** `gh` could not be run or exited non-zero. */
  ghFailed: "TOOL-GH-001",
  /**
   * A GitHub tool asked to act on an issue, pull request or repository that is not the run's own
   * and that agent.json does not declare (`integrations.github.targets`).
   */
  notRunsTarget: "TOOL-GH-002",
  /**
   * `github_comment` could not post: the run's repository is unknown (gh could not tell it in the
   * working directory when the run started), so there is nowhere the comment may go.
   */
  unknownRepository: "TOOL-GH-003",
  /** The OS sandbox is required but cannot run here (missing programs, no user namespaces). */
  sandboxUnavailable: "TOOL-SANDBOX-001",
  /** Notice: the agent turned the sandbox off; model-issued commands run unsandboxed. */
  sandboxOff: "TOOL-SANDBOX-002",
  /**
   * Bash: git inside the sandbox changed refs other than the run's own branch, or moved HEAD; the
   * repository's are unchanged (also a journal notice).
   */
  gitNotKept: "TOOL-GIT-001",
  /**
   * Bash: the host refused to take back what git inside the sandbox wrote (a malformed object, an
   * index git cannot read, the run's branch moved to something that is not a commit).
   */
  gitRefused: "TOOL-GIT-002",
  /** A regular expression or glob took longer than its deadline (catastrophic backtracking). */
  patternTimeout: "TOOL-PATTERN-001",
  /** A command is longer than the boundary filter inspects. */
  commandTooLong: "TOOL-BASH-003",
  /** An unexpected I/O failure inside a tool. */
  ioFailure: "TOOL-IO-001",
  /** Audit: a tool name in allowedTools that climpt does not provide; it is ignored. */
  auditUnknownTool: "TOOL-AUDIT-001",
  /** Audit: a step's allowedTools names a tool the agent's allowedTools does not grant. */
  auditStepWidens: "TOOL-AUDIT-002",
  /** createToolbox: the working directory does not exist or is not a directory. */
  badWorkingDirectory: "TOOL-CONFIG-001",
} as const;

export type ToolCode = (typeof TOOL_CODES)[keyof typeof TOOL_CODES];
