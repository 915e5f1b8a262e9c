/**
 * The sandbox for commands the runner starts itself rather than the model: command validators and
 * program (`runner.command`) steps (docs/design.md#tools-and-their-boundary). Both run what the
 * model may have written (`node test/run.js` runs the model's tests), so both get exactly what a
 * Bash call gets — the working directory writable, the rest of the file system read-only, the
 * home directory hidden, a private HOME, no secrets, network only as the agent allows, and `gh`
 * through the broker — plus the variables they declare by name.
 *
 * It prepares the command and leaves running it to the caller (`SandboxedLaunch`), so the
 * validators keep their own output capture, timeouts and process-group kill unchanged.
 */
import { ClimptError, collectSecrets, createScrubber, type SecretScrubber } from "@climpt/model";
import { type BoundaryRequest, BoundaryRequestLog } from "../boundary-request.ts";
import { TOOL_CODES } from "../codes.ts";
import { type WorkingRoot, workingRoot } from "../confine-path.ts";
import {
  createGithubAccess,
  type GithubAccess,
  type GithubAccessOptions,
  NO_GITHUB_ACCESS,
} from "../github-access.ts";
import { type ProtectedPath, resolveProtectedPaths } from "../protected-paths.ts";
import { SANDBOX_HINT } from "../tools/bash.ts";
import type { GhBrokerRecord } from "./gh-broker.ts";
import type { GhStepKind } from "./gh-policy.ts";
import { NEVER_PASSED_ENV } from "./passed-env.ts";
import { probeSandbox } from "./sandbox-host.ts";
import { launchSandboxed, type SandboxedLaunch } from "./sandboxed-shell.ts";
import { resolveSandboxSettings, type SandboxSettingsInput } from "./settings.ts";

export interface CommandSandboxOptions {
  /** The run's working directory: the command runs there and may write only there. */
  readonly cwd: string;
  /**
   * Whose rights the command's `gh` calls get from the broker: `verification` for a validator
   * (a check reads), `closure` for a program step (a closure step; a close it asks for is
   * recorded for the boundary hook, see `boundaryRequests`).
   */
  readonly stepKind: GhStepKind;
  /**
   * Whose GitHub the commands' gh writes may touch: the agent (its declared `targets`, and
   * whether the boundary hook acts on what a closure step records) and the run's arguments (its
   * own issue and pull request), and the run's repository (fixed before its first step; absent:
   * asked of gh at the working directory's root once). Default: none of its own, so every write
   * is refused.
   */
  readonly github?: Pick<GithubAccessOptions, "agent" | "params" | "repository">;
  /** agent.json `runner.boundaries.sandbox`; its mode is not read (the caller chose the sandbox). */
  readonly sandbox?: SandboxSettingsInput;
  /** Overrides of the caller's environment (`undefined` removes a variable), as for the toolbox. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The real gh the broker runs (a name on PATH or a path). Default `gh`. */
  readonly ghCommand?: string;
  /** The run's scrubber: a variable whose value it knows never enters the sandbox undeclared. */
  readonly scrubber?: SecretScrubber;
  /** Names the agent declares secret (agent.json `runner.boundaries.secrets`): kept out. */
  readonly secrets?: { readonly env?: readonly string[] };
  /**
   * Paths inside the working directory the commands may not change (the run's journal folder,
   * the agent definitions), as for the toolbox: a validator's `npm test` is model-written code.
   */
  readonly protectedPaths?: readonly ProtectedPath[];
}

export interface CommandLaunchOptions {
  /** Variables passed in although secret: the validator's or program step's `env` declaration. */
  readonly passEnv?: readonly string[];
  readonly signal?: AbortSignal;
}

/** Commands of one validator run or one program step execution, each in a fresh sandbox. */
export interface CommandSandbox {
  /**
   * Prepares `command` (a shell command line) for the sandbox; the caller runs
   * `sh -c launch.command` in `launch.cwd` with exactly `launch.env`, in its own process group,
   * then calls `launch.release()` once. Throws a `ClimptError` `TOOL-SANDBOX-001` (with how to
   * enable the sandbox) when it cannot start on this machine; nothing ran then.
   */
  launch(command: string, options?: CommandLaunchOptions): Promise<SandboxedLaunch>;
  /**
   * Close, merge and label requests the commands' `gh` calls recorded (closure step kind only),
   * for the boundary hook to perform after validated completion.
   */
  boundaryRequests(): readonly BoundaryRequest[];
  /** Every gh call the broker answered for the commands launched so far. */
  ghCalls(): readonly GhBrokerRecord[];
}

/** The caller's environment with overrides applied (`undefined` removes a variable). */
function callerEnv(overrides: CommandSandboxOptions["env"]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...overrides })) {
    if (value !== undefined) env[key] = value;
  }
  return env;
}

export function createCommandSandbox(options: CommandSandboxOptions): CommandSandbox {
  const settings = resolveSandboxSettings(options.sandbox);
  const boundary = new BoundaryRequestLog();
  const launched: SandboxedLaunch[] = [];
  const declaredSecretNames = options.secrets?.env ?? [];
  let hostEnv: Record<string, string> | undefined;
  let ghEnv: Record<string, string> | undefined;
  let github: GithubAccess | undefined;
  let scrubber: SecretScrubber | undefined = options.scrubber;
  const ghCommand = options.ghCommand ?? "gh";
  let root: WorkingRoot | undefined;
  let protectedReal: readonly string[] | undefined;
  return {
    async launch(command, launchOptions = {}) {
      const probe = await probeSandbox();
      if (!probe.ok) {
        throw new ClimptError({
          code: TOOL_CODES.sandboxUnavailable,
          message: `the OS sandbox cannot start here: ${probe.reason}`,
          hint: SANDBOX_HINT,
        });
      }
      root ??= workingRoot(options.cwd);
      const realRoot = root.real;
      hostEnv ??= callerEnv(options.env);
      scrubber ??= createScrubber(
        collectSecrets({ env: hostEnv, secretEnvNames: declaredSecretNames }),
      );
      if (ghEnv === undefined) {
        // The real gh outside: the caller's environment, credentials included, never the model's.
        ghEnv = { ...hostEnv, GIT_TERMINAL_PROMPT: "0", GH_PROMPT_DISABLED: "1" };
        for (const name of NEVER_PASSED_ENV) delete ghEnv[name];
      }
      const realGhEnv = ghEnv;
      // One access per sandbox: the run's repository is asked of gh at most once.
      github ??=
        options.github === undefined
          ? NO_GITHUB_ACCESS
          : createGithubAccess({
              ...options.github,
              ghCommand,
              env: () => realGhEnv,
              cwd: realRoot,
            });
      protectedReal ??= resolveProtectedPaths(root, options.protectedPaths ?? []).map(
        (entry) => entry.real,
      );
      const launch = await launchSandboxed(command, {
        root,
        settings: { ...settings, protectedPaths: protectedReal },
        hostEnv,
        ghEnv,
        ghCommand,
        scrubber,
        declaredSecretNames,
        stepKind: options.stepKind,
        boundary,
        github,
        passEnv: launchOptions.passEnv ?? [],
        ...(launchOptions.signal === undefined ? {} : { signal: launchOptions.signal }),
      });
      launched.push(launch);
      return launch;
    },
    boundaryRequests: () => boundary.requests(),
    ghCalls: () => launched.flatMap((launch) => launch.gh),
  };
}

/**
 * An argument vector as one shell command line that runs it without a shell's help: `exec` and
 * each word in single quotes, so nothing in an argument (`$(…)`, `;`, globs) is interpreted.
 */
export function commandLine(argv: readonly string[]): string {
  return `exec ${argv.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ")}`;
}
