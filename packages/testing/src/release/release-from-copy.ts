/**
 * `pnpm release` as the maintainers run it (a publishing build with declarations, then
 * `changeset publish`), run in a copy of the workspace and published to the local registry.
 *
 * A copy, because the publishing build rewrites every package's `dist` (tsdown empties it
 * first): in the workspace itself it would pull the builds from under the other test files that
 * run beside this one. The copy holds the files git knows (tracked or not ignored) of the root,
 * `.changeset` and the public packages, and links each `node_modules` to the workspace's, so
 * nothing is installed. Turbo's cache for the copy lives under the workspace's
 * `node_modules/.cache`, so a second run with unchanged sources rebuilds nothing.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { LocalRegistry } from "./local-registry.ts";
import { runTool, toolEnv } from "./run-tool.ts";
import { WORKSPACE_ROOT, type WorkspacePackage, workspacePackages } from "./workspace-packages.ts";

/** The root files `pnpm release` reads: the scripts, the workspace, turbo, the shared build. */
const ROOT_FILES = [
  "package.json",
  "pnpm-workspace.yaml",
  "turbo.json",
  "tsdown.shared.ts",
  "tsconfig.base.json",
  ".changeset",
];

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "climpt release test",
  GIT_AUTHOR_EMAIL: "release-test@climpt.invalid",
  GIT_COMMITTER_NAME: "climpt release test",
  GIT_COMMITTER_EMAIL: "release-test@climpt.invalid",
};

/**
 * How long `pnpm run release` may take before it counts as hung: a cold publishing build and 18
 * publishes took 10 minutes at load 30 on 2 cores (under 2 minutes on a quiet machine).
 */
const RELEASE_LIMIT_MS = 1_500_000;

export interface ReleaseResult {
  /** The packages `changeset publish` published, `name@version`. */
  readonly published: readonly string[];
  /** The public packages of the workspace (what should have been published). */
  readonly publicPackages: readonly WorkspacePackage[];
  /** The copy's output: turbo's build summary and changesets' log. */
  readonly log: string;
}

async function copyWorkspace(into: string, publicPackages: readonly WorkspacePackage[]) {
  const relative = publicPackages.map((pkg) => path.relative(WORKSPACE_ROOT, pkg.dir));
  const { stdout } = await promisify(execFile)(
    "git",
    [
      "ls-files",
      "-z",
      "--cached",
      "--others",
      "--exclude-standard",
      "--",
      ...ROOT_FILES,
      ...relative,
    ],
    { cwd: WORKSPACE_ROOT, maxBuffer: 64 * 1024 * 1024 },
  );
  for (const file of stdout.split("\0")) {
    // A file deleted in the work tree but still in the index is not part of the release.
    if (file === "" || !existsSync(path.join(WORKSPACE_ROOT, file))) continue;
    await mkdir(path.dirname(path.join(into, file)), { recursive: true });
    await cp(path.join(WORKSPACE_ROOT, file), path.join(into, file));
  }
  await symlink(path.join(WORKSPACE_ROOT, "node_modules"), path.join(into, "node_modules"));
  for (const dir of relative) {
    await symlink(
      path.join(WORKSPACE_ROOT, dir, "node_modules"),
      path.join(into, dir, "node_modules"),
    );
  }
}

/**
 * The private packages are not published, but a public package's dev dependency may name one
 * (`@climpt/testing`: `workspace:^`), and `pnpm publish` must find it in the workspace to rewrite
 * the range. Their manifest alone does that, without scripts, so the build leaves them out.
 */
async function writePrivateManifests(into: string, privatePackages: readonly WorkspacePackage[]) {
  for (const pkg of privatePackages) {
    const dir = path.join(into, path.relative(WORKSPACE_ROOT, pkg.dir));
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, "package.json"),
      JSON.stringify({ name: pkg.name, version: pkg.version, private: true }),
    );
  }
}

/**
 * Copies the workspace, runs `pnpm run release` there against `registry`, and returns what was
 * published. Refuses to start when a public package would publish elsewhere
 * (`publishConfig.registry`).
 */
export async function releaseFromCopy(registry: LocalRegistry): Promise<ReleaseResult> {
  const all = await workspacePackages();
  const publicPackages = all.filter((pkg) => !pkg.private);
  for (const pkg of publicPackages) {
    const manifest = JSON.parse(await readFile(path.join(pkg.dir, "package.json"), "utf8")) as {
      publishConfig?: { registry?: string };
    };
    if (manifest.publishConfig?.registry !== undefined) {
      throw new Error(
        `${pkg.name} names a registry of its own in publishConfig; the test would publish there.`,
      );
    }
  }
  const dir = await mkdtemp(path.join(tmpdir(), "climpt-release-"));
  try {
    await copyWorkspace(dir, publicPackages);
    await writePrivateManifests(
      dir,
      all.filter((pkg) => pkg.private),
    );
    await writeFile(path.join(dir, ".gitignore"), "node_modules\n.turbo\ndist\n");
    // Only this registry and its token: a user's ~/.npmrc (with a real token) is not read.
    const npmrc = path.join(dir, ".npmrc-release");
    await writeFile(npmrc, registry.npmrc);
    const env = toolEnv({
      ...GIT_IDENTITY,
      ...registry.env,
      npm_config_userconfig: npmrc,
      TURBO_CACHE_DIR: path.join(WORKSPACE_ROOT, "node_modules", ".cache", "climpt-release-turbo"),
      TURBO_TELEMETRY_DISABLED: "1",
      DO_NOT_TRACK: "1",
    });
    // changeset publish tags each release in git: the copy is a repository of its own.
    await runTool("git", ["init", "-q", "-b", "main"], { cwd: dir, env });
    await runTool("git", ["add", "-A"], { cwd: dir, env });
    await runTool("git", ["commit", "-qm", "release copy"], { cwd: dir, env });
    // changesets spawns npm and pnpm several times per package: minutes on a busy machine.
    const stdout = await runTool("pnpm", ["run", "release"], {
      cwd: dir,
      env,
      limitMs: RELEASE_LIMIT_MS,
    });
    const published: string[] = [];
    for (const pkg of publicPackages) {
      if ((await registry.versionsOf(pkg.name)).includes(pkg.version)) {
        published.push(`${pkg.name}@${pkg.version}`);
      }
    }
    return { published, publicPackages, log: stdout };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
