/**
 * The codes this package adds. Model and step failures keep the codes of `@climpt/sdk-adapter`
 * (`AC-MODEL-*`, `AC-STEP-*`), so a run reports the same code whichever executor ran the step;
 * these are the failures only the Claude Code executor has. The README lists them with their
 * fixes, and the registry-schema README catalogues them with every other code.
 */
export const CLAUDE_CODE_CODES = {
  /**
   * The Claude Code binary cannot be found or started (platform package missing, bad path).
   * Example: `The Claude Code binary cannot be started: Claude Code native binary not found at
   * /opt/claude.` Fix: Reinstall with optional dependencies (the SDK's platform package carries the
   * binary), or set the executor's `executable`.
   */
  executableMissing: "AC-CC-001",
  /**
   * `sandbox: "required"` and Claude Code's sandbox cannot start (bubblewrap or socat missing).
   * Example: `Claude Code's sandbox cannot start, and a climpt step runs commands only inside it:
   * Sandbox required but unavailable: … bubblewrap (bwrap) not installed, socat not installed …`
   * Fix: `apt-get install bubblewrap socat`, or set the executor's `sandbox` to `"off"`.
   */
  sandboxUnavailable: "AC-CC-002",
  /**
   * Claude Code ended the session on an error of its own: a startup failure, a crash, a hook.
   * Example: `Claude Code ended the session with error_during_execution (cwd_unavailable): …` Fix:
   * Read the message; check that `claude -p hello` starts with the same environment.
   */
  sessionFailed: "AC-CC-003",
  /**
   * The executor's settings are unusable (a relative cwd, an unknown settings source…). Example:
   * `Unknown Claude Code settings source(s): team.` Fix: Fix the setting the message names.
   */
  badSettings: "AC-CC-004",
  /**
   * A tool call asked to run its command outside the sandbox (`dangerouslyDisableSandbox`).
   * Example: `AC-CC-005: commands run only inside the sandbox in a climpt step; …` Fix: Nothing to
   * fix; the model sees the refusal and goes on.
   */
  unsandboxedCommand: "AC-CC-005",
} as const;
// Frozen in place rather than through `Object.freeze({…})` as the initializer: a call's result
// type cannot be read without a type checker, and the published declarations are written without one
// (isolated declarations, tsdown.shared.ts).
Object.freeze(CLAUDE_CODE_CODES);

export type ClaudeCodeCode = (typeof CLAUDE_CODE_CODES)[keyof typeof CLAUDE_CODE_CODES];
