import { isBoundaryCommand, MAX_COMMAND_CHARS } from "../boundary-command.ts";
import { type BuiltinTool, failure, success } from "../builtin-tool.ts";
import { TOOL_CODES } from "../codes.ts";
import { runShell, type ShellRun } from "../run-shell.ts";
import { probeSandbox } from "../sandbox/sandbox-host.ts";
import { runSandboxed, type SandboxedRun } from "../sandbox/sandboxed-shell.ts";
import { scriptReader } from "../script-reader.ts";
import { defineInput } from "../tool-input.ts";

export const MAX_BASH_TIMEOUT_MS: number = 10 * 60 * 1000;

/** How to make the sandbox available, in the TOOL-SANDBOX-001 message. */
export const SANDBOX_HINT =
  'Bash commands run only inside the OS sandbox (bubblewrap). Install its programs (Debian/Ubuntu: `apt-get install bubblewrap socat ripgrep`) and allow unprivileged user namespaces (`sysctl -w kernel.unprivileged_userns_clone=1`; on Ubuntu 24.04+ also `sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`), or set agent.json runner.boundaries.sandbox to "off" to run commands unsandboxed (reported on every run).';

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

// The description is part of every recorded request (cassettes fingerprint it): it still says
// what it said before the sandbox. Sandbox refusals explain themselves in the command's output.
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
    if (command.length > MAX_COMMAND_CHARS) {
      return {
        kind: "refused",
        code: TOOL_CODES.commandTooLong,
        reason: `the command is ${command.length} characters long, more than ${MAX_COMMAND_CHARS}; write the commands to a script file in the working directory and run the script.`,
      };
    }
    const verdict = isBoundaryCommand(command, {
      readScript: scriptReader(context.root),
      // The sandbox's gh broker lets a closure step edit labels; the filter agrees.
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
        const shared = {
          timeoutMs,
          outputCapBytes: context.outputCapBytes,
          ...(signal === undefined ? {} : { signal }),
        };
        let run: ShellRun & Partial<Pick<SandboxedRun, "git">>;
        if (context.sandbox.mode === "off") {
          context.notice({
            code: TOOL_CODES.sandboxOff,
            message: `${TOOL_CODES.sandboxOff}: the OS sandbox is off for this agent (runner.boundaries.sandbox is "off"): Bash commands run with the caller's files, network and credentials (model credentials withheld).`,
          });
          run = await runShell(command, { cwd: context.root.real, env: context.env, ...shared });
        } else {
          const probe = await probeSandbox();
          if (!probe.ok) {
            return failure(TOOL_CODES.sandboxUnavailable, `${probe.reason} ${SANDBOX_HINT}`);
          }
          run = await runSandboxed(command, {
            root: context.root,
            settings: context.sandbox,
            hostEnv: context.hostEnv,
            ghEnv: context.env,
            ghCommand: context.ghCommand,
            scrubber: context.scrubber,
            declaredSecretNames: context.declaredSecretNames,
            stepKind: context.stepKind,
            boundary: context.boundary,
            gitPush: context.gitPush,
            github: context.github,
            ...shared,
          });
        }
        if (run.spawnError !== undefined) {
          return {
            content: `${TOOL_CODES.ioFailure}: could not start sh: ${run.spawnError}`,
            isError: true,
          };
        }
        let body = run.output === "" ? "(no output)" : run.output.replace(/\n$/, "");
        // What the host did not keep of the command's git is part of what the command did.
        for (const note of run.git?.notes ?? []) {
          body += `\n${note.code}: ${note.message}`;
          context.report({ code: note.code, message: `${note.code}: ${note.message}` });
        }
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
