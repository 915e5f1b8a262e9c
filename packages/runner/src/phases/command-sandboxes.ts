/**
 * The commands the runner starts itself — command validators, program (`runner.command`) steps
 * and the agent's command boundary hook — run in the OS sandbox Bash runs in
 * (docs/design.md#tools-and-their-boundary): each runs what the model may have written
 * (`node test/run.js` runs the model's tests, `npm run deploy` its `package.json`), so none gets
 * the caller's credentials, files outside the working directory or the network. Each gets only
 * the secret variables it declares by name (`env`). With the agent's sandbox `"off"` they run on
 * the host as before (the run's `RUN-SANDBOX-002` notice says so).
 */
import {
  type CommandLauncher,
  type CommandOutcome,
  createExecaCommandRunner,
  type HookCommandLauncher,
} from "@climpt/completion-chain";
import type { AgentDefinition, Problem, StepSubprocess } from "@climpt/model";
import { problem } from "@climpt/model";
import {
  type BoundaryRequest,
  type CommandSandbox,
  type CommandSandboxOptions,
  commandLine,
  createCommandSandbox,
  type GhStepKind,
  SANDBOX_HINT,
} from "@climpt/tools";
import { RUNNER_CODES } from "../codes.ts";
import type { RunContext } from "../run/run-context.ts";

/** Whether the agent's commands run sandboxed (the default) or, by its explicit choice, not. */
export function sandboxesCommands(agent: Pick<AgentDefinition, "sandbox">): boolean {
  return (agent.sandbox?.mode ?? "required") !== "off";
}

/** What a command sandbox is built from: a run's context, or `climpt verify`'s own. */
export interface SandboxSettings {
  readonly agent: AgentDefinition;
  /** The folder the commands run in (writable; everything else read-only or hidden). */
  readonly cwd: string;
  readonly args: RunContext["args"];
  readonly env: RunContext["env"];
  readonly ghCommand: RunContext["ghCommand"];
  readonly githubRepository: RunContext["githubRepository"];
  readonly scrubber: RunContext["events"]["scrubber"];
  readonly protectedPaths: RunContext["protectedPaths"];
}

function settingsOf(ctx: RunContext): SandboxSettings {
  return { ...ctx, scrubber: ctx.events.scrubber };
}

/** A fresh command sandbox for this run's working directory, with the given gh rights. */
function commandSandbox(settings: SandboxSettings, stepKind: GhStepKind): CommandSandbox {
  const sandbox = settings.agent.sandbox;
  const options: CommandSandboxOptions = {
    cwd: settings.cwd,
    stepKind,
    // The run's own issue and pull request (and what the agent declares): without them the
    // broker refuses every write, and a program step's `gh pr merge <its PR>` is never recorded.
    github: {
      agent: settings.agent,
      params: settings.args,
      ...(settings.githubRepository === undefined ? {} : { repository: settings.githubRepository }),
    },
    ...(sandbox === undefined
      ? {}
      : {
          sandbox: {
            mode: sandbox.mode,
            network: { allow: sandbox.networkAllow },
            readable: sandbox.readable,
          },
        }),
    ...(settings.env === undefined ? {} : { env: settings.env }),
    ...(settings.ghCommand === undefined ? {} : { ghCommand: settings.ghCommand }),
    scrubber: settings.scrubber,
    // The journal folder and the agent definitions stay out of reach, as they are for Bash.
    protectedPaths: settings.protectedPaths,
    ...(settings.agent.secretEnvNames === undefined
      ? {}
      : { secrets: { env: settings.agent.secretEnvNames } }),
  };
  return createCommandSandbox(options);
}

/**
 * Where this run's validators run: the sandbox, with a validator's gh calls answered as a
 * verification step's (it checks: it reads, and comments on the run's own issue or pull
 * request), and its declared `env` passed in. `undefined` when
 * the agent turned the sandbox off: the validators' own host launcher.
 */
export function validatorLauncher(ctx: RunContext): CommandLauncher | undefined {
  return validatorLauncherFor(settingsOf(ctx));
}

/** `validatorLauncher` from settings of its own (`climpt verify` re-runs validators so). */
export function validatorLauncherFor(settings: SandboxSettings): CommandLauncher | undefined {
  if (!sandboxesCommands(settings.agent)) return undefined;
  const sandbox = commandSandbox(settings, "verification");
  return (command, request) =>
    sandbox.launch(command, {
      passEnv: request.declaredEnv,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
}

/**
 * Where a validator's command runs on the run's base (a scratch checkout at the merge base, to
 * tell the failures the change caused from those already there): a sandbox made for that
 * folder, with the same rights as the run's validators; `"host"` when the agent turned the
 * sandbox off. The base's files are the repository's, but its tests still run what someone
 * other than the user may have written, so they are confined as the run's are.
 */
export function baselineLauncher(ctx: RunContext): ((cwd: string) => CommandLauncher) | "host" {
  if (!sandboxesCommands(ctx.agent)) return "host";
  return (cwd) => {
    const sandbox = commandSandbox({ ...settingsOf(ctx), cwd }, "verification");
    return (command, request) =>
      sandbox.launch(command, {
        passEnv: request.declaredEnv,
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
  };
}

/**
 * Where the agent's command boundary hook runs: a fresh sandbox with a closure step's gh rights
 * (reads, comments, label edits run; a close or merge of the run's own issue or pull request is
 * recorded, and the hook performs it once the command succeeded), and the hook's declared `env`.
 * `undefined` when the agent turned the sandbox off: the hook's host runner.
 */
export function hookLauncher(ctx: RunContext): HookCommandLauncher | undefined {
  if (!sandboxesCommands(ctx.agent)) return undefined;
  return async (command, request) => {
    const sandbox = commandSandbox(settingsOf(ctx), "closure");
    const launch = await sandbox.launch(command, {
      passEnv: request.declaredEnv,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    return {
      command: launch.command,
      env: launch.env,
      release: () => launch.release(),
      boundaryRequests: () => sandbox.boundaryRequests(),
    };
  };
}

export type ProgramRun =
  | {
      readonly ok: true;
      readonly outcome: CommandOutcome;
      /**
       * What the program's `gh` calls recorded for the boundary hook (a closure step's rights):
       * a close of the run's issue, a merge of its pull request, their labels. The completion
       * phase hands them to the hook, which performs them after validated completion.
       */
      readonly boundaryRequests: readonly BoundaryRequest[];
    }
  | { readonly ok: false; readonly error: Problem };

/** Runs the sandboxed command with the caller's environment left out: `launch.env` is all of it. */
const runWithOwnEnvironment = createExecaCommandRunner({ env: {} });

/**
 * Runs a program step's command: in the sandbox, as `exec` of its argument vector (no shell
 * interprets an argument), with a closure step's gh rights and the program's declared `env`;
 * or, with the sandbox off, on the host through the run's command runner as before.
 */
export async function runProgram(
  ctx: RunContext,
  stepId: string,
  program: StepSubprocess,
  args: readonly string[],
): Promise<ProgramRun> {
  const run = { timeoutMs: program.timeoutMs, signal: ctx.signal };
  if (!sandboxesCommands(ctx.agent)) {
    const outcome = await ctx.commandRunner(program.command, args, {
      cwd: ctx.cwd,
      ...run,
      ...(ctx.env === undefined ? {} : { env: ctx.env }),
    });
    return { ok: true, outcome, boundaryRequests: [] };
  }
  const sandbox = commandSandbox(settingsOf(ctx), "closure");
  let launch: Awaited<ReturnType<CommandSandbox["launch"]>>;
  try {
    launch = await sandbox.launch(commandLine([program.command, ...args]), {
      passEnv: program.env ?? [],
      signal: ctx.signal,
    });
  } catch (error) {
    return {
      ok: false,
      error: problem(
        RUNNER_CODES.sandboxRequired,
        `Step "${stepId}" runs ${program.command} inside the OS sandbox, and ${(error as Error).message}`,
        {
          file: ctx.loaded.files.registry,
          path: `$.steps["${stepId}"].runner`,
          hint: SANDBOX_HINT,
        },
      ),
    };
  }
  try {
    const outcome = await runWithOwnEnvironment("sh", ["-c", launch.command], {
      cwd: launch.cwd,
      env: launch.env,
      ...run,
    });
    // The runner's note names what it ran, `sh`; the program is what timed out.
    const named = outcome.timedOut
      ? {
          ...outcome,
          stderr: outcome.stderr.replace(/^sh timed out/m, `${program.command} timed out`),
        }
      : outcome;
    return { ok: true, outcome: named, boundaryRequests: sandbox.boundaryRequests() };
  } finally {
    await launch.release();
  }
}
