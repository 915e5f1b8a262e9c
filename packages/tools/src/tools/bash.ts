import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isBoundaryCommand } from "../boundary-command.ts";
import { type BuiltinTool, success } from "../builtin-tool.ts";
import { TOOL_CODES } from "../codes.ts";
import type { WorkingRoot } from "../confine-path.ts";
import { runShell } from "../run-shell.ts";
import { looksBinary } from "../text-cap.ts";
import { defineInput } from "../tool-input.ts";

export const MAX_BASH_TIMEOUT_MS = 10 * 60 * 1000;
const MAX_INSPECTED_SCRIPT_BYTES = 512 * 1024;

const input = defineInput({
  command: {
    type: "string",
    required: true,
    nonEmpty: true,
    description: "The shell command, run with `sh -c` in the working directory.",
  },
  timeout: {
    type: "integer",
    minimum: 1,
    maximum: MAX_BASH_TIMEOUT_MS,
    description: `Timeout in milliseconds (at most ${MAX_BASH_TIMEOUT_MS}). Default: the runner's Bash timeout.`,
  },
  description: {
    type: "string",
    description: "A few words on what the command does, for the run's log.",
  },
});

export const bashTool: BuiltinTool = {
  name: "Bash",
  description: [
    "Runs a shell command with `sh -c` in the working directory and returns its combined stdout and stderr and its exit code.",
    "Each call is a fresh shell: `cd` and variables do not carry over, and processes it leaves in the background are stopped when it ends.",
    "Nobody can answer a prompt: use non-interactive flags. Long output keeps its beginning and end.",
    "On timeout the command and every process it started are killed.",
    "Boundary actions are refused in every step: `gh issue close|reopen|delete|transfer|edit`, `gh pr merge|close|ready`,",
    "`gh release create|delete|edit|upload`, `gh repo delete|archive`, `gh api`, and `git push` with force or delete;",
    "a closure step may label issues (`gh issue edit <n> --add-label <l> --remove-label <l>`) and comment (`gh issue comment`).",
    "Closing, merging and releasing happen only in the boundary hook after the run is validated.",
  ].join(" "),
  inputSchema: input.schema,
  prepare(raw, context) {
    const parsed = input.parse(raw);
    if (!parsed.ok) return { kind: "invalid", problems: parsed.problems };
    const { command } = parsed.value;
    const verdict = isBoundaryCommand(command, {
      readScript: scriptReader(context.root),
      allowLabelEdits: context.stepKind === "closure",
    });
    if (verdict.refused) {
      return {
        kind: "refused",
        code: TOOL_CODES.boundaryCommand,
        reason: verdict.reason ?? "the command performs a boundary action.",
      };
    }
    const timeoutMs = parsed.value.timeout ?? context.bashTimeoutMs;

    return {
      kind: "run",
      async run(signal) {
        const run = await runShell(command, {
          cwd: context.root.real,
          env: context.env,
          timeoutMs,
          outputCapBytes: context.outputCapBytes,
          ...(signal === undefined ? {} : { signal }),
        });
        if (run.spawnError !== undefined) {
          return {
            content: `${TOOL_CODES.ioFailure}: could not start sh: ${run.spawnError}`,
            isError: true,
          };
        }
        const body = run.output === "" ? "(no output)" : run.output.replace(/\n$/, "");
        if (run.timedOut) {
          return {
            content: `${body}\n${TOOL_CODES.bashTimeout}: the command ran longer than ${timeoutMs} ms; it and every process it started were killed.`,
            isError: true,
          };
        }
        if (run.aborted) {
          return {
            content: `${body}\n${TOOL_CODES.bashAborted}: the call was aborted; the command and every process it started were killed.`,
            isError: true,
          };
        }
        if (run.exitCode === undefined) {
          return { content: `${body}\n[terminated by ${run.signal ?? "a signal"}]`, isError: true };
        }
        const result = `${body}\n[exit code ${run.exitCode}]`;
        return run.exitCode === 0 ? success(result) : { content: result, isError: true };
      },
    };
  },
};

/**
 * Lets the boundary check read scripts the command runs. Reading is not confined to the working
 * directory: the text is inspected, never shown to the model, and `bash /tmp/x.sh` must be
 * inspected as well as `bash ./x.sh`.
 */
function scriptReader(root: WorkingRoot): (file: string) => string | undefined {
  return (file) => {
    try {
      const absolute = path.resolve(root.real, file);
      const stats = statSync(absolute);
      if (!stats.isFile() || stats.size > MAX_INSPECTED_SCRIPT_BYTES) return undefined;
      const buffer = readFileSync(absolute);
      return looksBinary(buffer) ? undefined : buffer.toString("utf8");
    } catch {
      return undefined;
    }
  };
}
