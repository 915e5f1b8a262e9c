import { randomUUID } from "node:crypto";
import { promises as fs, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { GitLayout } from "@climpt/host-git";
import type { SecretScrubber } from "@climpt/model";
import type { BoundaryRequestLog } from "../boundary-request.ts";
import type { WorkingRoot } from "../confine-path.ts";
import { runShell, type ShellRun } from "../run-shell.ts";
import { type GhBrokerRecord, startGhBroker } from "./gh-broker.ts";
import type { GhStepKind } from "./gh-policy.ts";
import { ghShimSource } from "./gh-shim.ts";
import {
  describeSettlement,
  type GitSettlement,
  type GitSettlementNote,
  settleGitAfterCommand,
} from "./git-settle.ts";
import { STAGED_COMMAND_VARIABLE, stagingCommand } from "./git-staging.ts";
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
  readonly timeoutMs: number;
  readonly outputCapBytes: number;
  readonly signal?: AbortSignal;
}

export interface SandboxedRun extends ShellRun {
  readonly gh: readonly GhBrokerRecord[];
  /**
   * What the host took back from the command's git (git-settle.ts), and what the model and the
   * journal are told when something was not kept; absent outside a repository.
   */
  readonly git?: {
    readonly settlement: GitSettlement;
    readonly notes: readonly GitSettlementNote[];
  };
}

async function makeLayout(
  repo: GitLayout | null,
  env: Readonly<Record<string, string>>,
): Promise<SandboxLayout> {
  const dir = realpathSync(await fs.mkdtemp(path.join(tmpdir(), "climpt-sandbox-")));
  const layout: SandboxLayout = {
    dir,
    home: path.join(dir, "home"),
    bin: path.join(dir, "bin"),
    broker: path.join(dir, "broker"),
  };
  await Promise.all([
    fs.mkdir(path.join(layout.home, ".config", "gh"), { recursive: true }),
    fs.mkdir(layout.bin),
    fs.mkdir(layout.broker, { mode: 0o700 }),
  ]);
  await fs.writeFile(path.join(layout.home, ".gitconfig"), await gitIdentity(repo, env));
  await fs.writeFile(path.join(layout.bin, "gh"), ghShimSource(process.execPath), { mode: 0o755 });
  return layout;
}

/**
 * Runs one Bash command in the OS sandbox: a fresh private HOME and broker directory, the gh
 * broker listening, the command wrapped by the sandbox runtime and run in its own process group.
 * On timeout or abort the group is killed; bubblewrap going takes the sandbox's whole PID
 * namespace with it, `setsid` children included, so its pipes close. Everything made for the
 * command is removed afterwards.
 */
export async function runSandboxed(
  command: string,
  options: SandboxedRunOptions,
): Promise<SandboxedRun> {
  const repo = repositoryOf(options.root.real);
  const layout = await makeLayout(repo, options.ghEnv);
  try {
    const staging = repo === null ? null : stageGit(repo, layout.dir);
    const sandboxGit = { staging, guard: repo === null ? gitGuardPaths(options.root.real) : [] };
    const broker = await startGhBroker({
      dir: layout.broker,
      root: options.root,
      stepKind: options.stepKind,
      ghCommand: options.ghCommand,
      env: options.ghEnv,
      boundary: options.boundary,
    });
    try {
      const wrapped = await wrapForSandbox(
        staging === null ? command : stagingCommand(staging, bwrapPath(options.hostEnv.PATH)),
        sandboxPolicy(options.root, layout, options.settings, options.hostEnv, sandboxGit),
        {
          commandId: randomUUID(),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        },
      );
      try {
        const run = await runShell(wrapped.command, {
          cwd: options.root.real,
          env: {
            ...sandboxEnvironment(
              options.hostEnv,
              layout,
              options.scrubber,
              options.declaredSecretNames,
            ),
            ...(staging === null ? {} : { [STAGED_COMMAND_VARIABLE]: command }),
          },
          timeoutMs: options.timeoutMs,
          outputCapBytes: options.outputCapBytes,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
        if (staging === null) return { ...run, gh: broker.records };
        // Before anything else acts on the repository: what the command's git did is taken
        // back (or reported as not kept) now, whether the command succeeded or not.
        const settlement = await settleGitAfterCommand(staging, { env: options.ghEnv });
        return {
          ...run,
          gh: broker.records,
          git: { settlement, notes: describeSettlement(staging, settlement) },
        };
      } finally {
        wrapped.release();
      }
    } finally {
      await broker.close();
    }
  } finally {
    await fs.rm(layout.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
