/**
 * What a team gets from `npm i -D climpt` in its own repository: the CLI and the `@climpt/*`
 * packages it depends on, packed into tarballs the way they would be published and installed with
 * npm into a scratch project outside the monorepo (no workspace links, no sources, only the
 * published `files`). There, from the project's own folder, init → validate → a run against the
 * fake Messages API must work, and relative paths must be the project's.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import {
  type FakeAnthropic,
  installPackedPackages,
  reply,
  type ScratchInstall,
  startFakeAnthropic,
  type WorkspacePackage,
  workspacePackages,
} from "@climpt/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import type { CliOutcome } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 64 s at load 13–25.
vi.setConfig({ testTimeout: 270_000, hookTimeout: 270_000 });

// Packing about fifteen packages and an npm install that may reach the registry: minutes on a
// busy 2-core machine. The limit detects a hang; it does not measure speed.
const INSTALL_LIMIT_MS = 900_000;

/** `climpt` and every workspace package it depends on, directly or not (dev dependencies aside). */
async function climptWithItsPackages(): Promise<WorkspacePackage[]> {
  const all = await workspacePackages();
  const byName = new Map(all.map((pkg) => [pkg.name, pkg]));
  const wanted = new Set<string>();
  const visit = (name: string): void => {
    const pkg = byName.get(name);
    if (pkg === undefined || wanted.has(name)) return;
    wanted.add(name);
    const manifest = JSON.parse(readFileSync(path.join(pkg.dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
      if (range.startsWith("workspace:")) visit(dependency);
    }
  };
  visit("climpt");
  return all.filter((pkg) => wanted.has(pkg.name));
}

let install: ScratchInstall;
let fake: FakeAnthropic;

beforeAll(async () => {
  fake = await startFakeAnthropic();
  const packages = await climptWithItsPackages();
  for (const pkg of packages) expect(pkg.private, `${pkg.name} is private`).toBe(false);
  install = await installPackedPackages({ packages });
  writeFileSync(path.join(install.dir, ".gitignore"), "node_modules/\ntarballs/\ntmp/\n");
  git(install.dir, "init", "-q", "-b", "main");
}, INSTALL_LIMIT_MS);

afterAll(async () => {
  await fake?.close();
  await install?.remove();
});

/** `npx climpt …` in the scratch project: the installed bin, not the workspace's. */
function climpt(args: readonly string[], env: Record<string, string> = {}): Promise<CliOutcome> {
  const bin = path.join(install.dir, "node_modules", ".bin", "climpt");
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd: install.dir,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...GIT_IDENTITY, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe("climpt installed from its tarballs into a project of its own", () => {
  it("installs as a package: the bin, no workspace sources", () => {
    const names = install.installed.map((pkg) => pkg.name);
    expect(names).toContain("climpt");
    expect(names).toContain("@climpt/runner");
    const cli = path.join(install.dir, "node_modules", "climpt");
    expect(existsSync(path.join(cli, "bin", "climpt.mjs"))).toBe(true);
    expect(existsSync(path.join(cli, "src"))).toBe(false);
  });

  it("scaffolds, validates and runs an agent from the project's root", async () => {
    const init = await climpt(["init", "my-agent"]);
    expect(init.code, init.stderr).toBe(0);
    expect(existsSync(path.join(install.dir, ".agent", "my-agent", "agent.json"))).toBe(true);
    git(install.dir, "add", "-A");
    git(install.dir, "commit", "-qm", "Add the agent");

    const validate = await climpt(["validate", "my-agent"]);
    expect(validate.stderr).toBe("my-agent: valid (0 errors, 0 warnings)\n");
    expect(validate.code).toBe(0);

    const graph = await climpt(["graph", "my-agent", "--format", "mermaid"]);
    expect(graph.code, graph.stderr).toBe(0);
    expect(graph.stdout).toContain("closure.done");

    fake.enqueue(
      reply.json({
        stepId: "initial.work",
        summary: "Planned.",
        plan: { approach: "nothing to change" },
        next_action: { action: "next", reason: "planned" },
      }),
      reply.json({
        stepId: "continuation.work",
        summary: "Nothing to change.",
        work: { description: "none", files: [] },
        next_action: { action: "handoff", reason: "done" },
      }),
      reply.json({
        stepId: "closure.done",
        summary: "Finished.",
        closure: { committed: true, report: "nothing to do" },
        next_action: { action: "closing", reason: "complete" },
      }),
    );
    const run = await climpt(["run", "my-agent", "--task", "check the README", "--json"], {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "test-key",
    });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { success: boolean; runId: string };
    expect(result.success).toBe(true);
    expect(fake.messageRequests()).toHaveLength(3);
    // The journal lands under the project the command ran in.
    const journal = path.join(install.dir, "tmp", "climpt", "logs", "my-agent");
    expect(existsSync(path.join(journal, `${result.runId}.jsonl`))).toBe(true);

    const runs = await climpt(["runs", "--json"]);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toContain(result.runId);
  });
});
