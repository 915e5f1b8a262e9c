import { apiCommand } from "./api-command.ts";
import { RUN_COMMANDS } from "./check-runs.ts";
import { GhUsageError, parseGhArgs } from "./gh-args.ts";
import { GhCommandError, type GhContext, type GhOutput } from "./gh-context.ts";
import { repositoryFromGitRemotes } from "./git-remote.ts";
import { ISSUE_COMMANDS } from "./issue-commands.ts";
import { GhFieldError } from "./json-fields.ts";
import { LABEL_COMMANDS } from "./label-commands.ts";
import { PR_COMMANDS } from "./pr-commands.ts";
import { REPO_COMMANDS } from "./repo-commands.ts";
import {
  emptyRepo,
  type FakeGhFailure,
  type FakeGhState,
  readFakeGhState,
  withStateLock,
  writeFakeGhState,
} from "./state.ts";

export const FAKE_GH_VERSION = "2.23.0-climpt-fake";

type Handler = (context: GhContext, argv: readonly string[]) => GhOutput;

const GROUPS: Readonly<Record<string, Readonly<Record<string, Handler>>>> = {
  issue: ISSUE_COMMANDS,
  label: LABEL_COMMANDS,
  pr: PR_COMMANDS,
  repo: REPO_COMMANDS,
  run: RUN_COMMANDS,
};

export interface RunFakeGhOptions {
  /** The state file (`CLIMPT_FAKE_GH_STATE`). */
  readonly statePath: string;
  /** `GH_REPO`, when set. */
  readonly envRepo?: string;
  readonly cwd: string;
  readonly readStdin: () => string;
  readonly now?: Date;
}

/** `--repo OWNER/NAME` / `-R` anywhere in the arguments, as gh's inherited flag. */
function repoFlag(argv: readonly string[]): string | undefined {
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index] as string;
    if (token === "--repo" || token === "-R") return argv[index + 1];
    if (token.startsWith("--repo=")) return token.slice("--repo=".length);
    if (token.startsWith("-R") && token.length > 2) return token.slice(2);
  }
  return undefined;
}

function failureFor(state: FakeGhState, argv: readonly string[]): FakeGhFailure | undefined {
  const words = argv
    .filter((token) => !token.startsWith("-"))
    .slice(0, 2)
    .join(" ");
  const numberArg = argv[2] === undefined ? undefined : Number(argv[2].replace(/^#/, ""));
  return state.failures.find(
    (failure) =>
      (failure.times ?? 1) > 0 &&
      (words === failure.command || words.startsWith(`${failure.command} `)) &&
      (failure.number === undefined || failure.number === numberArg),
  );
}

function usage(message: string): GhOutput {
  return { exitCode: 1, stdout: "", stderr: `${message}\n` };
}

function dispatch(context: GhContext, argv: readonly string[]): GhOutput {
  const [group, command, ...rest] = argv;
  if (group === "--version" || group === "version") {
    return { exitCode: 0, stdout: `gh version ${FAKE_GH_VERSION}\n`, stderr: "" };
  }
  if (group === "auth" && command === "status") {
    parseGhArgs(rest, { hostname: { kind: "string", short: "h" } });
    return {
      exitCode: 0,
      stdout: "",
      stderr: `github.com\n  ✓ Logged in to github.com as ${context.state.user} (climpt fake gh)\n`,
    };
  }
  if (group === "api") return apiCommand(context, argv.slice(1));
  const handlers = group === undefined ? undefined : GROUPS[group];
  if (handlers === undefined) {
    return usage(
      `fake gh: \`gh ${group ?? ""}\` is not modelled. It models: issue (list, view, create, edit, close, reopen, comment), label (list, create, edit, delete), pr (create, list, view, merge, checks), run view, repo view, api (a few REST calls), auth status, --version.`,
    );
  }
  const handler = command === undefined ? undefined : handlers[command];
  if (handler === undefined) {
    return usage(
      `fake gh: \`gh ${group} ${command ?? ""}\` is not modelled. \`gh ${group}\` models: ${Object.keys(handlers).join(", ")}.`,
    );
  }
  return handler(context, rest);
}

/**
 * One invocation of the fake gh against its state file: reads the state under the file lock,
 * runs the command (or a configured failure), records the call, writes the state back. Errors a
 * real gh reports come back as exit 1 with gh's message on stderr; anything the fake does not
 * model is exit 1 with a message naming what it models, never a silent success.
 */
export function runFakeGh(argv: readonly string[], options: RunFakeGhOptions): GhOutput {
  const named = repoFlag(argv) ?? options.envRepo ?? repositoryFromGitRemotes(options.cwd);
  return withStateLock(options.statePath, () => {
    const state = readFakeGhState(options.statePath);
    const repoName = named ?? state.defaultRepo;
    let repo = state.repos[repoName];
    const now = (options.now ?? new Date()).toISOString();
    const record = (output: GhOutput, injected: boolean): GhOutput => {
      state.calls.push({
        argv: [...argv],
        repo: repoName,
        exitCode: output.exitCode,
        ...(injected ? { injected: true } : {}),
        time: now,
      });
      writeFakeGhState(options.statePath, state);
      return output;
    };
    const failure = failureFor(state, argv);
    if (failure !== undefined) {
      failure.times = (failure.times ?? 1) - 1;
      return record(
        {
          exitCode: failure.exitCode ?? 1,
          stdout: failure.stdout ?? "",
          stderr: `${failure.stderr ?? "HTTP 502: Bad Gateway (injected by the fake gh)"}\n`,
        },
        true,
      );
    }
    if (repo === undefined) {
      const group = argv[0];
      if (
        group === "issue" ||
        group === "label" ||
        group === "pr" ||
        group === "repo" ||
        group === "run"
      ) {
        return record(
          usage(
            `GraphQL: Could not resolve to a Repository with the name '${repoName}'. (repository)`,
          ),
          false,
        );
      }
      repo = emptyRepo();
    }
    const context: GhContext = {
      state,
      repoName,
      repo,
      now,
      cwd: options.cwd,
      readStdin: options.readStdin,
    };
    // A failing command must leave the state as it was: work on a copy of the repository and
    // keep it only on success.
    const before = JSON.stringify(repo);
    let output: GhOutput;
    try {
      output = dispatch(context, argv);
    } catch (error) {
      if (
        error instanceof GhUsageError ||
        error instanceof GhCommandError ||
        error instanceof GhFieldError
      ) {
        if (state.repos[repoName] !== undefined) state.repos[repoName] = JSON.parse(before);
        return record(usage(error.message), false);
      }
      throw error;
    }
    return record(output, false);
  });
}
