import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { waitUntil } from "@climpt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { toolboxFor, useTempDirs } from "../tools.test-helper.ts";
import {
  API_KEY,
  AWS_SECRET,
  countingServer,
  credentialEnv,
  credentialHome,
  fakeGh,
  GH_TOKEN,
  hostProcessWith,
  repoWithRemote,
} from "./sandbox.test-helper.ts";
import { resetSandboxProbe } from "./sandbox-host.ts";

describe("Bash in the sandbox", () => {
  const tempDir = useTempDirs();

  it("writes only inside the working directory, never .git/config or .git/hooks", async () => {
    const dir = tempDir();
    const { work } = repoWithRemote(dir);
    const config = readFileSync(path.join(work, ".git", "config"), "utf8");
    const result = await toolboxFor(work).call("Bash", {
      command: [
        "echo inside > inside.txt",
        "mkdir -p sub && echo deep > sub/deep.txt",
        "git add -A && git commit -qm 'from the sandbox' && echo committed",
        "echo '[core] hooksPath = /tmp' >> .git/config || echo config-refused",
        "echo 'touch pwned' > .git/hooks/post-commit || echo hooks-refused",
        `echo outside > ${path.join(dir, "outside.txt")} || echo outside-refused`,
      ].join("; "),
    });
    expect(result.content).toContain("committed");
    expect(result.content).toContain("config-refused");
    expect(result.content).toContain("hooks-refused");
    expect(result.content).toContain("outside-refused");
    expect(readFileSync(path.join(work, "sub", "deep.txt"), "utf8")).toBe("deep\n");
    expect(readFileSync(path.join(work, ".git", "config"), "utf8")).toBe(config);
    expect(existsSync(path.join(work, ".git", "hooks", "post-commit"))).toBe(false);
    expect(existsSync(path.join(dir, "outside.txt"))).toBe(false);
  });

  it("leaves no placeholder files in the working directory when the process runs there", async () => {
    const dir = tempDir();
    const { work } = repoWithRemote(dir);
    const before = process.cwd();
    process.chdir(work);
    try {
      const result = await toolboxFor(work).call("Bash", {
        command: "echo x > new.txt && git add -A && git status --porcelain && ls -A",
      });
      expect(result.content).toBe("A  new.txt\n.git\nREADME.md\na.txt\nnew.txt\n[exit code 0]");
    } finally {
      process.chdir(before);
    }
  });

  it("holds no credentials: a private HOME, no secret variables, the user's home hidden", async () => {
    const dir = tempDir();
    const home = credentialHome(dir);
    const gh = fakeGh(dir);
    const work = path.join(dir, "work");
    mkdirSync(work);
    const box = toolboxFor(work, { env: credentialEnv(home, gh) });
    const result = await box.call("Bash", {
      command: [
        'echo "HOME=$HOME"',
        "env",
        `cat ${home}/.config/gh/hosts.yml ${home}/.git-credentials ${home}/.ssh/id_ed25519`,
        "git config --global --list",
        "ls -a ~",
      ].join("; "),
    });
    const text = result.content;
    expect(text).not.toContain(GH_TOKEN);
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(AWS_SECRET);
    // Absent, not scrubbed: nothing secret was there to replace.
    expect(text).not.toContain("[REDACTED");
    expect(text).not.toMatch(/^(?:GH_TOKEN|GITHUB_TOKEN|ANTHROPIC_API_KEY|SSH_AUTH_SOCK)=/m);
    expect(text).not.toContain(`HOME=${home}`);
    expect(text).toContain("No such file or directory");
    expect(text).toContain("user.name=Host User");
    expect(text).not.toContain("credential.helper");
  });

  it("sees its own processes in /proc, never the parent's", async () => {
    const dir = tempDir();
    const home = credentialHome(dir);
    const box = toolboxFor(dir, { env: credentialEnv(home, fakeGh(dir)) });
    const result = await box.call("Bash", {
      command:
        "tr '\\0' '\\n' < /proc/$PPID/environ; cat /proc/*/environ /proc/*/cmdline 2>/dev/null | tr '\\0' '\\n'; echo; echo \"processes: $(ls /proc | grep -c '^[0-9]')\"",
    });
    expect(result.content).not.toContain(API_KEY);
    expect(result.content).not.toContain(GH_TOKEN);
    expect(result.content).not.toContain("[REDACTED");
    // A fresh PID namespace: a handful of processes (bwrap's init, the shells, the proxy bridges).
    // Found by its label: the output is stdout and stderr interleaved, and on a busy machine a
    // sandbox helper's late message can land after it (the last line but one was NaN once).
    const count = Number(/^processes: (\d+)$/m.exec(result.content)?.[1]);
    expect(count, result.content.slice(-500)).toBeGreaterThan(0);
    expect(count).toBeLessThan(20);
  });

  it("has no network unless the agent allows a host", async () => {
    const dir = tempDir();
    const server = await countingServer();
    try {
      // Directly (no route: no network interface) and through the sandbox's proxy (`--noproxy ''`
      // overrides the NO_PROXY the sandbox sets for loopback).
      const url = `http://127.0.0.1:${server.port}/`;
      const curl = `curl -sS -m 20 ${url} || echo unreachable; curl -fsS -m 20 --noproxy '' ${url} || echo unreachable`;
      const closed = await toolboxFor(dir).call("Bash", { command: curl });
      expect(closed.content.split("unreachable").length - 1).toBe(2);
      expect(server.hits()).toBe(0);

      const allowed = await toolboxFor(dir, {
        sandbox: { network: { allow: [`127.0.0.1:${server.port}`] } },
      }).call("Bash", { command: curl });
      expect(allowed.content).toContain("reached");
      expect(server.hits()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("ends at the timeout even when a setsid child holds the output pipe; the child dies too", async () => {
    const dir = tempDir();
    const marker = `${4000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    const result = await toolboxFor(dir).call("Bash", {
      command: `setsid sleep ${marker} & echo started; sleep 600`,
      timeout: 1000,
    });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("started");
    expect(result.content).toContain("TOOL-BASH-001");
    expect(await waitUntil(() => !hostProcessWith(marker), 20_000)).toBe(true);
  });

  it("stops what the command leaves behind, setsid children included, when it exits", async () => {
    const dir = tempDir();
    const marker = `${5000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    const result = await toolboxFor(dir).call("Bash", {
      command: `setsid sleep ${marker} > /dev/null 2>&1 < /dev/null & (sleep ${marker} &); echo left`,
    });
    expect(result.content).toBe("left\n[exit code 0]");
    expect(await waitUntil(() => !hostProcessWith(marker), 20_000)).toBe(true);
  });

  it("stops everything when the call is aborted", async () => {
    const dir = tempDir();
    const marker = `${6000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    const controller = new AbortController();
    const box = toolboxFor(dir);
    const pending = box.execute(
      {
        id: "t1",
        name: "Bash",
        input: { command: `setsid sleep ${marker} & touch started; wait` },
      },
      controller.signal,
    );
    expect(await waitUntil(() => existsSync(path.join(dir, "started")), 60_000)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.content).toContain("TOOL-BASH-002");
    expect(await waitUntil(() => !hostProcessWith(marker), 20_000)).toBe(true);
  });

  it("scrubs secrets the command finds in the working directory from its output", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, ".env"), `GH_TOKEN=${GH_TOKEN}\n`);
    const box = toolboxFor(dir, { env: { GH_TOKEN } });
    const result = await box.call("Bash", { command: "cat .env" });
    expect(result.content).toBe("GH_TOKEN=[REDACTED GH_TOKEN]\n[exit code 0]");
    expect(box.events.at(-1)).toMatchObject({ type: "tool_result", content: result.content });
  });
});

describe("sandbox modes", () => {
  const tempDir = useTempDirs();
  const originalPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = originalPath;
    resetSandboxProbe();
  });

  it('"off" runs unsandboxed and reports it once per toolbox', async () => {
    const dir = tempDir();
    const box = toolboxFor(dir, { sandbox: "off" });
    const outside = path.join(path.dirname(dir), `${path.basename(dir)}-outside.txt`);
    const result = await box.call("Bash", { command: `echo x > ${outside} && echo wrote` });
    await box.call("Bash", { command: "true" });
    expect(result.content).toBe("wrote\n[exit code 0]");
    expect(box.notices).toEqual([
      { code: "TOOL-SANDBOX-002", message: expect.stringContaining('sandbox is "off"') },
    ]);
    expect(existsSync(outside)).toBe(true);
  });

  it('"required" refuses with TOOL-SANDBOX-001 and how to fix it when the sandbox cannot run', async () => {
    const dir = tempDir();
    // bubblewrap is looked up on PATH: without it the sandbox cannot start.
    process.env.PATH = "/nonexistent";
    resetSandboxProbe();
    const result = await toolboxFor(dir).call("Bash", { command: "touch ran.txt" });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^TOOL-SANDBOX-001: .*bubblewrap/);
    expect(result.content).toContain("apt-get install bubblewrap socat ripgrep");
    expect(result.content).toContain('"off"');
    expect(existsSync(path.join(dir, "ran.txt"))).toBe(false);
  });
});
