import { randomUUID } from "node:crypto";
import { promises as fs, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SecretScrubber } from "@climpt/model";
import type { BoundaryRequestLog } from "../boundary-request.ts";
import type { WorkingRoot } from "../confine-path.ts";
import { loadExeca } from "../lazy-modules.ts";
import { runShell, type ShellRun } from "../run-shell.ts";
import { type GhBrokerRecord, startGhBroker } from "./gh-broker.ts";
import type { GhStepKind } from "./gh-policy.ts";
import { ghShimSource } from "./gh-shim.ts";
import { type SandboxLayout, sandboxEnvironment, sandboxPolicy } from "./sandbox-env.ts";
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
}

const identityCache = new Map<string, Promise<string>>();

/** The user's git identity (and default branch), for the private HOME's `.gitconfig`. */
function gitIdentity(root: string, env: Readonly<Record<string, string>>): Promise<string> {
  let cached = identityCache.get(root);
  if (cached === undefined) {
    cached = (async () => {
      const { execa } = await loadExeca();
      const lines: string[] = [];
      for (const [section, key] of [
        ["user", "name"],
        ["user", "email"],
        ["init", "defaultBranch"],
      ] as const) {
        const result = await execa("git", ["config", "--get", `${section}.${key}`], {
          cwd: root,
          env,
          extendEnv: false,
          reject: false,
          timeout: 5000,
        });
        const value = result.exitCode === 0 ? String(result.stdout).trim() : "";
        if (value !== "" && !/[\n"\\]/.test(value))
          lines.push(`[${section}]\n\t${key} = "${value}"`);
      }
      return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
    })();
    identityCache.set(root, cached);
  }
  return cached;
}

async function makeLayout(
  root: string,
  env: Readonly<Record<string, string>>,
): Promise<SandboxLayout> {
  const dir = realpathSync(await fs.mkdtemp(path.join(tmpdir(), "climpt-sandbox-")));
  const layout: SandboxLayout = {
    dir,
    home: path.join(dir, "home"),
    bin: path.join(dir, "bin"),
    broker: path.join(dir, "broker"),
    tmp: path.join(dir, "tmp"),
  };
  await Promise.all([
    fs.mkdir(path.join(layout.home, ".config", "gh"), { recursive: true }),
    fs.mkdir(layout.bin),
    fs.mkdir(layout.broker, { mode: 0o700 }),
    fs.mkdir(layout.tmp, { mode: 0o700 }),
  ]);
  await fs.writeFile(path.join(layout.home, ".gitconfig"), await gitIdentity(root, env));
  await fs.writeFile(path.join(layout.bin, "gh"), ghShimSource(process.execPath), { mode: 0o755 });
  return layout;
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

/**
 * Runs one Bash command in the OS sandbox: a fresh private HOME, TMPDIR and broker directory, the gh
 * broker listening, the command wrapped by the sandbox runtime and run in its own process group.
 * On timeout or abort the group is killed; bubblewrap going takes the sandbox's whole PID
 * namespace with it, `setsid` children included, so its pipes close. Everything made for the
 * command is removed afterwards.
 */
export async function runSandboxed(
  command: string,
  options: SandboxedRunOptions,
): Promise<SandboxedRun> {
  const layout = await makeLayout(options.root.real, options.ghEnv);
  try {
    const broker = await startGhBroker({
      dir: layout.broker,
      root: options.root,
      stepKind: options.stepKind,
      ghCommand: options.ghCommand,
      env: options.ghEnv,
      boundary: options.boundary,
      // `cat > "$TMPDIR/body.md" && gh issue comment N --body-file "$TMPDIR/body.md"`.
      readableDirs: [layout.tmp],
    });
    try {
      const wrapped = await wrapForSandbox(
        withPrivateTmp(command, layout.tmp),
        sandboxPolicy(options.root, layout, options.settings, options.hostEnv),
        {
          commandId: randomUUID(),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        },
      );
      try {
        const run = await runShell(wrapped.command, {
          cwd: options.root.real,
          env: sandboxEnvironment(
            options.hostEnv,
            layout,
            options.scrubber,
            options.declaredSecretNames,
          ),
          timeoutMs: options.timeoutMs,
          outputCapBytes: options.outputCapBytes,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
        return { ...run, gh: broker.records };
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
