import path from "node:path";
import {
  confinePath,
  isBoundaryCommand,
  isInGitDir,
  type ProtectedPath,
  protectedPathOf,
  type ResolvedProtectedPath,
  resolveProtectedPaths,
  scriptReader,
  TOOL_CODES,
  type WorkingRoot,
  workingRoot,
} from "@climpt/tools";
import { CLAUDE_CODE_CODES } from "./codes.ts";
import { canonicalToolName, type ToolAccess } from "./tool-access.ts";

/** Whether one tool call may run, and if not, the code and the sentence the model sees. */
export type GuardVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly code: string; readonly reason: string };

/** Checks one tool call against the step's policy. Never throws for bad input: it refuses it. */
export type ToolGuard = (toolName: string, input: unknown) => GuardVerdict;

/** Claude Code's file tools and the input field that holds their path. */
const PATH_FIELDS: Readonly<Record<string, string>> = {
  Read: "file_path",
  Write: "file_path",
  Edit: "file_path",
  NotebookEdit: "notebook_path",
  Glob: "path",
  Grep: "path",
};

/** File tools that change what they touch: they may not write into `.git`. */
const WRITING_FILE_TOOLS: ReadonlySet<string> = new Set(["Write", "Edit", "NotebookEdit"]);

const ALLOWED: GuardVerdict = { allowed: true };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function refuse(code: string, reason: string): GuardVerdict {
  return { allowed: false, code, reason };
}

/** The directory part of a glob pattern before its first wildcard (`/etc/*.conf` → `/etc`). */
function staticPrefix(pattern: string): string {
  const wildcard = pattern.search(/[*?[{]/);
  const head = wildcard === -1 ? pattern : pattern.slice(0, wildcard);
  return head.endsWith("/") || wildcard === -1 ? head : path.dirname(head);
}

function confine(
  root: WorkingRoot,
  tool: string,
  value: string,
  writing: boolean,
  protectedPaths: readonly ResolvedProtectedPath[] = [],
): GuardVerdict {
  const confined = confinePath(root, value);
  if (!confined.ok) return refuse(TOOL_CODES.pathOutside, `${tool} refused: ${confined.reason}`);
  if (writing && isInGitDir(confined.relative)) {
    return refuse(
      TOOL_CODES.pathOutside,
      `${tool} refused: "${value}" is inside .git; hooks and config there could run anything later, so file tools do not write there.`,
    );
  }
  const guarded = writing ? protectedPathOf(protectedPaths, confined.real) : undefined;
  if (guarded !== undefined) {
    return refuse(
      TOOL_CODES.pathOutside,
      `${tool} refused: "${value}" is inside ${guarded.relative === "." ? "the working directory" : guarded.relative}, which no tool of this run may change: ${guarded.reason}`,
    );
  }
  return ALLOWED;
}

/**
 * The per-call half of the policy, the same rules the default executor's toolbox applies:
 *
 * - a tool the step does not have is refused with the policy's reason (`TOOL-POLICY-001` / `-002`);
 * - any `command` field (Bash, and any other tool that runs one) goes through the boundary
 *   filter (`TOOL-POLICY-003`), which also inspects scripts the command runs;
 * - asking to run a command outside Claude Code's sandbox is refused (`AC-CC-005`);
 * - file paths must stay in the working directory, symbolic links resolved, and writes may not
 *   enter `.git` or the run's protected paths (the journal folder, the agent definitions)
 *   (`TOOL-POLICY-004`).
 *
 * Registered twice, as a PreToolUse hook (every call, before Claude Code's own permission rules)
 * and inside `canUseTool` (calls that reach a permission decision), so a settings file that
 * turns hooks off or allows a tool outright does not get around it.
 */
export function createToolGuard(
  access: ToolAccess,
  cwd: string,
  protectedPaths: readonly ProtectedPath[] = [],
): ToolGuard {
  const root = workingRoot(cwd);
  const guarded = resolveProtectedPaths(root, protectedPaths);
  const readScript = scriptReader(root);
  return (toolName, input) => {
    const tool = canonicalToolName(toolName);
    const refusal = access.refusalFor(tool);
    if (refusal !== undefined) return refuse(refusal.code, refusal.reason);
    if (!isRecord(input)) return ALLOWED; // Claude Code validates the input against the tool's schema

    if (typeof input.command === "string") {
      if (input.dangerouslyDisableSandbox === true) {
        return refuse(
          CLAUDE_CODE_CODES.unsandboxedCommand,
          "commands run only inside the sandbox in a climpt step; run it without dangerouslyDisableSandbox, or do without it.",
        );
      }
      const verdict = isBoundaryCommand(input.command, { readScript });
      if (verdict.refused) {
        return refuse(
          TOOL_CODES.boundaryCommand,
          verdict.reason ?? "the command performs a boundary action.",
        );
      }
    }

    const field = PATH_FIELDS[tool];
    if (field !== undefined) {
      const value = input[field];
      if (typeof value === "string" && value !== "") {
        const verdict = confine(root, tool, value, WRITING_FILE_TOOLS.has(tool), guarded);
        if (!verdict.allowed) return verdict;
      }
    }
    if (tool === "Glob" && typeof input.pattern === "string") {
      const prefix = staticPrefix(input.pattern);
      if (path.isAbsolute(prefix) || prefix.split("/").includes("..")) {
        const verdict = confine(root, tool, prefix === "" ? "." : prefix, false);
        if (!verdict.allowed) return verdict;
      }
    }
    return ALLOWED;
  };
}
