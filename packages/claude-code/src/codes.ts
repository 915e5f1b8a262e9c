/**
 * The codes this package adds. Model and step failures keep the codes of `@climpt/sdk-adapter`
 * (`AC-MODEL-*`, `AC-STEP-*`), so a run reports the same code whichever executor ran the step;
 * these are the failures only the Claude Code executor has. The README lists them with their
 * fixes, and the registry-schema README catalogues them with every other code.
 */
export const CLAUDE_CODE_CODES = Object.freeze({
  /** The Claude Code binary cannot be found or started (platform package missing, bad path). */
  executableMissing: "AC-CC-001",
  /** `sandbox: "required"` and Claude Code's sandbox cannot start (bubblewrap or socat missing). */
  sandboxUnavailable: "AC-CC-002",
  /** Claude Code ended the session on an error of its own: a startup failure, a crash, a hook. */
  sessionFailed: "AC-CC-003",
  /** The executor's settings are unusable (a relative cwd, an unknown settings source…). */
  badSettings: "AC-CC-004",
  /** A tool call asked to run its command outside the sandbox (`dangerouslyDisableSandbox`). */
  unsandboxedCommand: "AC-CC-005",
} as const);

export type ClaudeCodeCode = (typeof CLAUDE_CODE_CODES)[keyof typeof CLAUDE_CODE_CODES];
