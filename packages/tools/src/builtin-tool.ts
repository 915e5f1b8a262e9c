import type { JsonSchema, JsonValue, SecretScrubber, StepKind, ToolResult } from "@climpt/model";
import type { BoundaryRequestLog } from "./boundary-request.ts";
import type { WorkingRoot } from "./confine-path.ts";
import type { GithubAccess } from "./github-access.ts";
import type { ResolvedProtectedPath } from "./protected-paths.ts";
import type { GitPushSetting } from "./sandbox/git-push-target.ts";
import type { SandboxSettings } from "./sandbox/settings.ts";
import type { ToolName } from "./tool-names.ts";

/** What a tool needs from the toolbox that runs it. */
export interface ToolContext {
  readonly root: WorkingRoot;
  readonly outputCapBytes: number;
  readonly bashTimeoutMs: number;
  /** How long Grep and Glob may spend matching before they stop with TOOL-PATTERN-001. */
  readonly patternTimeoutMs: number;
  /**
   * The environment of subprocesses outside the sandbox (the real gh, an unsandboxed Bash): the
   * caller's, minus model credentials, plus overrides.
   */
  readonly env: Readonly<Record<string, string>>;
  /** The caller's environment with overrides, credentials included: the sandbox's is made from it. */
  readonly hostEnv: Readonly<Record<string, string>>;
  readonly ghCommand: string;
  readonly boundary: BoundaryRequestLog;
  /** What this run's GitHub writes may touch: its own issue and pull request, what it declares. */
  readonly github: GithubAccess;
  readonly stepKind: StepKind;
  readonly sandbox: SandboxSettings;
  /** What `git push` inside the sandbox may push, or why nothing. */
  readonly gitPush: GitPushSetting;
  readonly scrubber: SecretScrubber;
  /**
   * Paths in the working directory no tool may change (the run's journal folder, the agent
   * definitions): Write and Edit refuse them; the sandbox holds them read-only (`sandbox`).
   */
  readonly protectedPaths: readonly ResolvedProtectedPath[];
  /** Variable names the agent declares secret: never passed into the sandbox. */
  readonly declaredSecretNames: readonly string[];
  /** Reports something the caller should know (the sandbox is off), once per code. */
  notice(notice: ToolboxNotice): void;
  /** Reports something the caller should know each time it happens (git changes not kept). */
  report(notice: ToolboxNotice): void;
}

/** Something the toolbox reports outside tool results: a coded message. */
export interface ToolboxNotice {
  readonly code: string;
  readonly message: string;
}

/**
 * The outcome of checking one call before anything happens: bad input, a per-call policy refusal
 * (a path outside the working directory, a boundary Bash command), or the work to do.
 */
export type PreparedCall =
  | { readonly kind: "invalid"; readonly problems: readonly string[] }
  | { readonly kind: "refused"; readonly code: string; readonly reason: string }
  | { readonly kind: "run"; readonly run: (signal?: AbortSignal) => Promise<ToolResult> };

export interface BuiltinTool {
  readonly name: ToolName;
  /** Written for the model: what the tool does, its limits, and what it refuses. */
  readonly description: string;
  readonly inputSchema: JsonSchema;
  prepare(input: JsonValue, context: ToolContext): PreparedCall;
}

export function success(content: string): ToolResult {
  return { content, isError: false };
}

/** A tool error the model can act on; `code` is from TOOL_CODES. */
export function failure(code: string, message: string): ToolResult {
  return { content: `${code}: ${message}`, isError: true };
}
