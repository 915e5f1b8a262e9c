/**
 * `createCommandSandbox`: the sandbox the runner runs validators and program steps in. The caller
 * runs the launch itself (`sh -c launch.command` with exactly `launch.env`), as the validators do.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { ClimptError } from "@climpt/model";
import { afterEach, describe, expect, it } from "vitest";
import { WITHHELD_ENV_VARS } from "../toolbox.ts";
import { agentDefinition, useTempDirs } from "../tools.test-helper.ts";
import {
  type CommandSandboxOptions,
  commandLine,
  createCommandSandbox,
} from "./command-sandbox.ts";
import { NEVER_PASSED_ENV } from "./passed-env.ts";
import { API_KEY, credentialEnv, credentialHome, fakeGh } from "./sandbox.test-helper.ts";
import { resetSandboxProbe } from "./sandbox-host.ts";

const NPM_TOKEN = "npm_CommandSandboxToken0123456789abcdefAB";

/**
 * Runs a command as a shell does, without blocking this process: the gh broker answering the
 * command's `gh` lives in it.
 */
async function sh(command: string, cwd: string, env: Readonly<Record<string, string>>) {
  try {
    const { stdout } = await promisify(execFile)("sh", ["-c", command], { cwd, env: { ...env } });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; code?: number };
    return `${failed.stdout ?? ""}[failed ${failed.code}]`;
  }
}

/** Runs a launch as a validator does, and releases it. */
async function runLaunched(
  options: CommandSandboxOptions,
  command: string,
  passEnv: readonly string[] = [],
): Promise<{ output: string; home: string }> {
  const sandbox = createCommandSandbox(options);
  const launch = await sandbox.launch(command, { passEnv });
  try {
    const output = await sh(launch.command, launch.cwd, launch.env);
    return { output, home: launch.env.HOME ?? "" };
  } finally {
    await launch.release();
  }
}

describe("createCommandSandbox", () => {
  const tempDir = useTempDirs();
  const originalPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = originalPath;
    resetSandboxProbe();
  });

  it("passes the declared secrets and no other; never the model's key, never over HOME", async () => {
    const dir = tempDir();
    const work = path.join(dir, "work");
    mkdirSync(work);
    const env = { ...credentialEnv(credentialHome(dir), fakeGh(dir)), NPM_TOKEN };
    const names = 'env | cut -d= -f1 | grep -E "TOKEN|_KEY|SECRET|^HOME$" | sort | tr "\\n" " "';
    const plain = await runLaunched({ cwd: work, stepKind: "verification", env }, names);
    expect(plain.output).toBe("HOME ");
    const declared = await runLaunched(
      { cwd: work, stepKind: "verification", env },
      `${names}; echo; echo "$NPM_TOKEN"; echo "$HOME"`,
      ["NPM_TOKEN", "ANTHROPIC_API_KEY", "HOME"],
    );
    const [listed, token, home] = declared.output.split("\n");
    expect(listed).toBe("HOME NPM_TOKEN ");
    expect(token).toBe(NPM_TOKEN);
    expect(home).toBe(declared.home);
    expect(declared.output).not.toContain(API_KEY);
    // The private HOME went with the release.
    expect(existsSync(declared.home)).toBe(false);
  });

  it("never passes what the toolbox withholds from every subprocess", () => {
    expect([...NEVER_PASSED_ENV].sort()).toEqual([...WITHHELD_ENV_VARS].sort());
  });

  it("brokers gh with the step kind it was given: a check reads, a closure step's close is recorded", async () => {
    const dir = tempDir();
    const work = path.join(dir, "work");
    mkdirSync(work);
    const gh = fakeGh(dir);
    const env = credentialEnv(credentialHome(dir), gh);
    const github = { agent: agentDefinition(), params: { issue: 3 } };
    const edit = "gh issue edit 3 --add-label done && echo edited";
    const check = await runLaunched({ cwd: work, stepKind: "verification", env, github }, edit);
    expect(check.output).toContain("[failed 1]");
    expect(gh.calls()).toEqual([]);

    const closure = createCommandSandbox({ cwd: work, stepKind: "closure", env, github });
    const launch = await closure.launch(`${edit}; gh issue close 3 --comment done`);
    try {
      const output = await sh(launch.command, launch.cwd, launch.env);
      expect(output).toContain("edited");
      expect(output).toContain("Recorded for the boundary hook: close issue #3");
    } finally {
      await launch.release();
    }
    expect(gh.calls()).toEqual([["issue", "edit", "3", "--add-label", "done"]]);
    expect(closure.boundaryRequests()).toEqual([
      { action: "close", issue: 3, labels: { add: [], remove: [] }, comment: "done" },
    ]);
    expect(closure.ghCalls().map((call) => call.outcome)).toEqual(["ran", "recorded"]);
  });

  it("gh writes touch only the run's own issue and pull request; without github, none", async () => {
    const dir = tempDir();
    const work = path.join(dir, "work");
    mkdirSync(work);
    const gh = fakeGh(dir);
    const env = credentialEnv(credentialHome(dir), gh);
    const writes = [
      "gh pr merge 8 --squash",
      "gh pr merge 9 --squash",
      "gh issue close 7",
      "gh issue comment 4 --body hi",
    ]
      .map(
        (command) => `${command} >/dev/null 2>&1 && echo "ok ${command}" || echo "no ${command}"`,
      )
      .join("; ");
    const own = createCommandSandbox({
      cwd: work,
      stepKind: "closure",
      env,
      github: { agent: agentDefinition(), params: { issue: 4, prNumber: 8 } },
    });
    const ownLaunch = await own.launch(writes);
    try {
      const output = await sh(ownLaunch.command, ownLaunch.cwd, ownLaunch.env);
      expect(output.trim().split("\n")).toEqual([
        "ok gh pr merge 8 --squash",
        "no gh pr merge 9 --squash",
        "no gh issue close 7",
        "ok gh issue comment 4 --body hi",
      ]);
    } finally {
      await ownLaunch.release();
    }
    expect(own.boundaryRequests()).toEqual([
      {
        action: "merge",
        pullRequest: 8,
        method: "squash",
        deleteBranch: false,
        labels: { add: [], remove: [] },
      },
    ]);
    expect(gh.calls()).toEqual([["issue", "comment", "4", "--body", "hi"]]);

    // No github option: the commands have no issue or pull request of their own.
    const none = createCommandSandbox({ cwd: work, stepKind: "closure", env });
    const noneLaunch = await none.launch(writes);
    try {
      const output = await sh(noneLaunch.command, noneLaunch.cwd, noneLaunch.env);
      expect(output).not.toContain("ok ");
    } finally {
      await noneLaunch.release();
    }
    expect(none.boundaryRequests()).toEqual([]);
    expect(gh.calls()).toHaveLength(1);
  });

  it("the run's own issue is the parameter with role issue (ticket), not one named issue", async () => {
    const dir = tempDir();
    const work = path.join(dir, "work");
    mkdirSync(work);
    const gh = fakeGh(dir);
    const env = credentialEnv(credentialHome(dir), gh);
    const agent = agentDefinition({
      parameters: {
        ticket: { name: "ticket", type: "number", required: true, cli: "--ticket", role: "issue" },
        issue: { name: "issue", type: "number", required: false, cli: "--issue" },
      },
    });
    const sandbox = createCommandSandbox({
      cwd: work,
      stepKind: "closure",
      env,
      github: { agent, params: { ticket: 12, issue: 7 } },
    });
    const writes = ["gh issue close 12", "gh issue close 7"]
      .map(
        (command) => `${command} >/dev/null 2>&1 && echo "ok ${command}" || echo "no ${command}"`,
      )
      .join("; ");
    const launch = await sandbox.launch(writes);
    try {
      const output = await sh(launch.command, launch.cwd, launch.env);
      expect(output.trim().split("\n")).toEqual(["ok gh issue close 12", "no gh issue close 7"]);
    } finally {
      await launch.release();
    }
    expect(sandbox.boundaryRequests()).toEqual([
      { action: "close", issue: 12, labels: { add: [], remove: [] } },
    ]);
  });

  it("throws TOOL-SANDBOX-001, with how to enable it, where the sandbox cannot start; nothing runs", async () => {
    const dir = tempDir();
    process.env.PATH = "/nonexistent";
    resetSandboxProbe();
    const sandbox = createCommandSandbox({ cwd: dir, stepKind: "verification" });
    const error = await sandbox.launch(`touch ${path.join(dir, "ran")}`).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(ClimptError.isInstance(error)).toBe(true);
    expect((error as ClimptError).code).toBe("TOOL-SANDBOX-001");
    expect((error as ClimptError).message).toMatch(/^the OS sandbox cannot start here: /);
    expect((error as ClimptError).hint).toContain("apt-get install bubblewrap");
    expect(existsSync(path.join(dir, "ran"))).toBe(false);
  });
});

describe("commandLine", () => {
  it("runs an argument vector as it is: nothing in an argument is interpreted", () => {
    const argv = ["printf", "%s|", "a b", "$(echo x)", "it's", "*", "; echo no"];
    const output = execFileSync("sh", ["-c", commandLine(argv)], { encoding: "utf8" });
    expect(output).toBe("a b|$(echo x)|it's|*|; echo no|");
  });
});
