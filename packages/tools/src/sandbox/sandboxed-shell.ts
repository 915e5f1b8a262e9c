import { randomUUID } from "node:crypto";
import { accessSync, constants, promises as fs, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { GitLayout } from "@climpt/host-git";
import type { SecretScrubber } from "@climpt/model";
import type { BoundaryRequestLog } from "../boundary-request.ts";
import type { WorkingRoot } from "../confine-path.ts";
import type { GithubAccess } from "../github-access.ts";
import { bindToProcessLife, type ReleaseBinding } from "../lifetime/process-life.ts";
import { runShell, type ShellRun } from "../run-shell.ts";
import { type GhBrokerRecord, startGhBroker } from "./gh-broker.ts";
import type { GhStepKind } from "./gh-policy.ts";
import { ghShimSource } from "./gh-shim.ts";
import { type GitPushRecord, startGitPushBroker } from "./git-push-broker.ts";
import { type GitPushSetting, isGitPushTarget, NO_PUSH_TARGET } from "./git-push-target.ts";
import {
  describeSettlement,
  type GitSettlement,
  type GitSettlementNote,
  refreshStagedRefs,
  settleGitAfterCommand,
} from "./git-settle.ts";
import { gitPushForwarderSource, gitShimSource } from "./git-shim.ts";
import { type GitStaging, STAGED_COMMAND_VARIABLE, stagingCommand } from "./git-staging.ts";
import { passDeclaredEnv } from "./passed-env.ts";
import { type SandboxLayout, sandboxEnvironment, sandboxPolicy } from "./sandbox-env.ts";
import { bwrapPath, gitGuardPaths, gitIdentity, repositoryOf, stageGit } from "./sandbox-git.ts";
import { wrapForSandbox } from "./sandbox-host.ts";
import type { SandboxSettings } from "./settings.ts";

export interface SandboxedRunOptions {
  readonly root: WorkingRoot;
  readonly settings: SandboxSettings;
  /** The caller's environment (with overrides): the source of the sandbox's, and of gh's. */
  readonly hostEnv: Readonly<Record<string, string>>;
  /** The real gh's environment (credentials included). */
  readonly ghEnv: Readonly<Record<string, string>>;
  readonly ghCommand: string;
  readonly scrubber: SecretScrubber;
  readonly declaredSecretNames: readonly string[];
  readonly stepKind: GhStepKind;
  readonly boundary: BoundaryRequestLog;
  /**
   * What `git push` in the command may push (the push broker's target), or why nothing.
   * Default: every push refused.
   */
  readonly gitPush?: GitPushSetting;
  /**
   * What the command's gh writes may touch, and the run's repository; default: none, so every gh
   * call that needs a repository is refused.
   */
  readonly github?: GithubAccess;
  readonly timeoutMs: number;
  readonly outputCapBytes: number;
  readonly signal?: AbortSignal;
}

export interface SandboxedRun extends ShellRun {
  readonly gh: readonly GhBrokerRecord[];
  readonly pushes: readonly GitPushRecord[];
  /**
   * What the host took back from the command's git (git-settle.ts), and what the model and the
   * journal are told when something was not kept; absent outside a repository.
   */
  readonly git?: {
    readonly settlement: GitSettlement;
    readonly notes: readonly GitSettlementNote[];
  };
}

const programCache = new Map<string, string | undefined>();

/** Where `name` is on `PATH` (the first executable file), as `command -v` would find it. */
function findProgram(name: string, searchPath: string | undefined): string | undefined {
  const key = `${name}\0${searchPath ?? ""}`;
  if (!programCache.has(key)) {
    let found: string | undefined;
    for (const dir of (searchPath ?? "").split(":")) {
      if (dir === "" || !path.isAbsolute(dir)) continue;
      const candidate = path.join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        if (statSync(candidate).isFile()) {
          found = candidate;
          break;
        }
      } catch {
        // not here
      }
    }
    programCache.set(key, found);
  }
  return programCache.get(key);
}

async function makeLayout(
  repo: GitLayout | null,
  env: Readonly<Record<string, string>>,
  searchPath: string | undefined,
): Promise<{ readonly layout: SandboxLayout; readonly unbind: ReleaseBinding }> {
  const dir = realpathSync(await fs.mkdtemp(path.join(tmpdir(), "climpt-sandbox-")));
  // Removed with this process however it ends (kill -9 included), not only by the launch's undo.
  const unbind = bindToProcessLife({ kind: "path", path: dir });
  const layout: SandboxLayout = {
    dir,
    home: path.join(dir, "home"),
    bin: path.join(dir, "bin"),
    broker: path.join(dir, "broker"),
    gitBroker: path.join(dir, "git-broker"),
    tmp: path.join(dir, "tmp"),
  };
  await Promise.all([
    fs.mkdir(path.join(layout.home, ".config", "gh"), { recursive: true }),
    fs.mkdir(layout.bin),
    fs.mkdir(layout.broker, { mode: 0o700 }),
    fs.mkdir(layout.gitBroker, { mode: 0o700 }),
    fs.mkdir(layout.tmp, { mode: 0o700 }),
  ]);
  await fs.writeFile(path.join(layout.home, ".gitconfig"), await gitIdentity(repo, env));
  await fs.writeFile(path.join(layout.bin, "gh"), ghShimSource(process.execPath), { mode: 0o755 });
  const realGit = findProgram("git", searchPath);
  if (realGit !== undefined) {
    const forwarder = path.join(layout.bin, "climpt-git-push");
    await fs.writeFile(forwarder, gitPushForwarderSource(process.execPath), { mode: 0o755 });
    await fs.writeFile(
      path.join(layout.bin, "git"),
      gitShimSource(realGit, process.execPath, forwarder),
      { mode: 0o755 },
    );
  }
  return { layout, unbind };
}

/**
 * The command with the temporary-folder variables set to its private folder first. The runtime
 * passes bubblewrap `--setenv TMPDIR /tmp/claude` (a folder shared by every sandbox it starts,
 * often absent), which overrides the environment the command is started with; the shell that
 * runs the command is the first place after that. One line, so the shell's messages keep the
 * command's own line numbers.
 */
function withPrivateTmp(command: string, tmp: string): string {
  const quoted = `'${tmp.replaceAll("'", "'\\''")}'`;
  return `export TMPDIR=${quoted} TMP=${quoted} TEMP=${quoted}; ${command}`;
}

/** What one sandboxed command gets, before it runs (the caller runs it, see `SandboxedLaunch`). */
export interface SandboxedLaunchOptions
  extends Omit<SandboxedRunOptions, "timeoutMs" | "outputCapBytes"> {
  /**
   * Variables passed into the sandbox although they would be left out (secret names, declared
   * secrets): what a validator or a program step declares in its `env`. Never the model's
   * credentials, and never a variable the sandbox sets itself (`HOME`, `PATH`, …).
   */
  readonly passEnv?: readonly string[];
}

/**
 * One command made ready for the sandbox: run `command` with `sh -c` in `cwd` with exactly `env`,
 * in its own process group, then call `release` once. Killing the group ends bubblewrap, and with
 * it the sandbox's whole PID namespace, `setsid` children included, so the caller's timeouts and
 * output handling work as for any shell command.
 */
export interface SandboxedLaunch {
  readonly command: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** The gh calls the broker answered so far (complete once the command has ended). */
  readonly gh: readonly GhBrokerRecord[];
  /** The pushes the git push broker answered so far. */
  readonly pushes: readonly GitPushRecord[];
  /**
   * Once the command has ended: takes back what its git did in the repository (git-settle.ts)
   * before anything else acts on it; undefined outside a repository. `release` does it too when
   * it was not asked for.
   */
  settleGit(): Promise<SandboxedRun["git"]>;
  /** Settles git (once), stops the brokers, releases the sandbox, removes the private folders. */
  release(): Promise<void>;
}

/**
 * Prepares one command for the OS sandbox: a fresh private HOME, TMPDIR and broker directories,
 * the staging git directory in a repository, the gh and git push brokers listening, the command
 * wrapped by the sandbox runtime. Nothing runs until the caller runs the launch; whatever
 * happens, the caller calls `release`.
 */
export async function launchSandboxed(
  command: string,
  options: SandboxedLaunchOptions,
): Promise<SandboxedLaunch> {
  const repo = repositoryOf(options.root.real);
  const { layout, unbind } = await makeLayout(repo, options.ghEnv, options.hostEnv.PATH);
  // Undone in reverse order: the wrap, the gh broker, the push broker, then the folders.
  const undo: Array<() => Promise<void> | void> = [
    async () => {
      await fs.rm(layout.dir, { recursive: true, force: true }).catch(() => undefined);
      unbind();
    },
  ];
  const undoAll = async (): Promise<void> => {
    for (const step of undo.splice(0).reverse()) await step();
  };
  try {
    const staging = repo === null ? null : stageGit(repo, layout.dir);
    const sandboxGit = { staging, guard: repo === null ? gitGuardPaths(options.root.real) : [] };
    const pushBroker = await startGitPushBroker({
      dir: layout.gitBroker,
      root: options.root,
      setting: settledBeforePush(options.gitPush ?? NO_PUSH_TARGET, staging, options.ghEnv),
      env: options.ghEnv,
      scrubber: options.scrubber,
    });
    undo.push(() => pushBroker.close());
    const broker = await startGhBroker({
      dir: layout.broker,
      root: options.root,
      stepKind: options.stepKind,
      ghCommand: options.ghCommand,
      env: options.ghEnv,
      boundary: options.boundary,
      // `cat > "$TMPDIR/body.md" && gh issue comment N --body-file "$TMPDIR/body.md"`.
      readableDirs: [layout.tmp],
      ...(options.github === undefined ? {} : { github: options.github }),
    });
    undo.push(() => broker.close());
    // In a repository the runtime runs the nested bubblewrap that shows the staging git
    // directory (git-staging.ts); the command reaches it through the environment, never quoted
    // twice.
    const own = withPrivateTmp(command, layout.tmp);
    const wrapped = await wrapForSandbox(
      staging === null ? own : stagingCommand(staging, bwrapPath(options.hostEnv.PATH)),
      sandboxPolicy(options.root, layout, options.settings, options.hostEnv, sandboxGit),
      {
        commandId: randomUUID(),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
    );
    undo.push(() => wrapped.release());
    const env = {
      ...passDeclaredEnv(
        sandboxEnvironment(options.hostEnv, layout, options.scrubber, options.declaredSecretNames),
        options.hostEnv,
        options.passEnv ?? [],
      ),
      ...(staging === null ? {} : { [STAGED_COMMAND_VARIABLE]: own }),
    };
    let settled: Promise<SandboxedRun["git"]> | undefined;
    const settleGit = (): Promise<SandboxedRun["git"]> => {
      settled ??=
        staging === null
          ? Promise.resolve(undefined)
          : // Whether the command succeeded or not: what its git did is taken back (or reported
            // as not kept) before anything else acts on the repository.
            settleGitAfterCommand(staging, { env: options.ghEnv }).then((settlement) => ({
              settlement,
              notes: describeSettlement(staging, settlement),
            }));
      return settled;
    };
    let released: Promise<void> | undefined;
    return {
      // `exec`: the shell that runs the launch becomes bubblewrap, so bubblewrap is this
      // process's own child, and its --die-with-parent (the runtime passes it) kills the sandbox
      // the moment this process dies, by the kernel, even before the lifetime watchdog acts.
      // The runtime's command stays a simple command, so the prefix composes.
      command: `exec ${wrapped.command}`,
      env,
      cwd: options.root.real,
      gh: broker.records,
      pushes: pushBroker.records,
      settleGit,
      release() {
        released ??= settleGit()
          .catch(() => undefined)
          .then(undoAll);
        return released;
      },
    };
  } catch (error) {
    await undoAll();
    throw error;
  }
}

/**
 * Runs one Bash command in the OS sandbox (`launchSandboxed`, then `runShell` in its own process
 * group, then the settling of its git). On timeout or abort the group is killed; bubblewrap going
 * takes the sandbox's whole PID namespace with it, `setsid` children included, so its pipes
 * close. Everything made for the command is removed afterwards.
 */
export async function runSandboxed(
  command: string,
  options: SandboxedRunOptions,
): Promise<SandboxedRun> {
  const launch = await launchSandboxed(command, options);
  try {
    const run = await runShell(launch.command, {
      cwd: launch.cwd,
      env: launch.env,
      timeoutMs: options.timeoutMs,
      outputCapBytes: options.outputCapBytes,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const git = await launch.settleGit();
    return { ...run, gh: launch.gh, pushes: launch.pushes, ...(git === undefined ? {} : { git }) };
  } finally {
    await launch.release();
  }
}

/**
 * The push target with the command's staging settled first: a push from inside the command
 * pushes what its git committed, so the host takes that into the repository (checked) before it
 * reads the repository to push; afterwards the refs the push changed (remote-tracking ones) are
 * shown to the command's git.
 */
function settledBeforePush(
  setting: GitPushSetting,
  staging: GitStaging | null,
  env: Readonly<Record<string, string>>,
): GitPushSetting {
  if (staging === null || !isGitPushTarget(setting)) return setting;
  return {
    ...setting,
    beforePush: async () => {
      await settleGitAfterCommand(staging, { env });
      await setting.beforePush?.();
    },
    afterPush: async () => {
      await setting.afterPush?.();
      await refreshStagedRefs(staging);
    },
  };
}
