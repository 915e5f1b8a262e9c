import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { waitUntil } from "@climpt/testing";
import { describe, expect, it } from "vitest";
import { isAlive, toolboxFor, useTempDirs } from "../tools.test-helper.ts";

describe("Bash", () => {
  const tempDir = useTempDirs();

  function pidsIn(dir: string, ...names: string[]): number[] {
    return names.map((name) => Number(readFileSync(path.join(dir, name), "utf8").trim()));
  }

  it("runs sh -c in the working directory and reports the exit code", async () => {
    const dir = tempDir();
    const box = toolboxFor(dir);
    expect(await box.call("Bash", { command: "pwd" })).toEqual({
      content: `${dir}\n[exit code 0]`,
      isError: false,
    });
    const failed = await box.call("Bash", { command: "echo out; echo err >&2; exit 3" });
    expect(failed).toEqual({ content: "out\nerr\n[exit code 3]", isError: true });
    expect(await box.call("Bash", { command: "true" })).toEqual({
      content: "(no output)\n[exit code 0]",
      isError: false,
    });
  });

  it("gives commands no stdin, so a reader returns at once", async () => {
    const dir = tempDir();
    expect((await toolboxFor(dir).call("Bash", { command: "cat; echo after" })).content).toBe(
      "after\n[exit code 0]",
    );
  });

  it("keeps the start and end of long output with a truncation note", async () => {
    const dir = tempDir();
    const result = await toolboxFor(dir, { outputCapBytes: 1000 }).call("Bash", {
      command: "seq 1 100000",
    });
    expect(result.content.startsWith("1\n2\n3\n")).toBe(true);
    expect(result.content.endsWith("99999\n100000\n[exit code 0]")).toBe(true);
    expect(result.content).toMatch(/\n\[… \d+ bytes of output omitted …\]\n/);
    expect(Buffer.byteLength(result.content)).toBeLessThan(1100);
  });

  // The process-group tests read PIDs the command prints, which only mean something on the host:
  // they run unsandboxed. "bash-sandbox.test.ts" checks the same bounds inside the sandbox.
  it("unsandboxed: kills the whole process tree on timeout", async () => {
    const dir = tempDir();
    const command = [
      "sleep 300 & echo $! > bg.pid",
      "sh -c 'echo $$ > inner.pid; sleep 300; echo survived > survived.txt'",
    ].join("; ");
    // The timeout leaves the shell time to start both processes and write their pids even on a
    // busy machine; after that, only the timeout can end the command.
    const result = await toolboxFor(dir, { sandbox: "off" }).call("Bash", {
      command,
      timeout: 3000,
    });
    expect(result.isError).toBe(true);
    expect(result.content).toContain(
      "TOOL-BASH-001: the command ran longer than 3000 ms; it and every process it started were killed.",
    );
    const pids = pidsIn(dir, "bg.pid", "inner.pid");
    expect(await waitUntil(() => pids.every((pid) => !isAlive(pid)))).toBe(true);
    expect(existsSync(path.join(dir, "survived.txt"))).toBe(false);
  });

  it("unsandboxed: stops background processes the command leaves behind", async () => {
    const dir = tempDir();
    const result = await toolboxFor(dir, { sandbox: "off" }).call("Bash", {
      command: "sleep 300 & echo $! > bg.pid; echo started",
    });
    expect(result.content).toBe("started\n[exit code 0]");
    const [pid] = pidsIn(dir, "bg.pid");
    expect(await waitUntil(() => !isAlive(pid as number))).toBe(true);
  });

  it("unsandboxed: kills the process tree when the call is aborted", async () => {
    const dir = tempDir();
    const box = toolboxFor(dir, { sandbox: "off" });
    const controller = new AbortController();
    const pending = box.execute(
      { id: "t1", name: "Bash", input: { command: "sh -c 'echo $$ > inner.pid; exec sleep 300'" } },
      controller.signal,
    );
    expect(
      await waitUntil(
        () =>
          existsSync(path.join(dir, "inner.pid")) &&
          readFileSync(path.join(dir, "inner.pid"), "utf8").endsWith("\n"),
      ),
    ).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.content).toContain("TOOL-BASH-002");
    const [pid] = pidsIn(dir, "inner.pid");
    expect(await waitUntil(() => !isAlive(pid as number))).toBe(true);
  });

  it("withholds the model's credentials from the environment and applies overrides", async () => {
    const dir = tempDir();
    const box = toolboxFor(dir, {
      env: { ANTHROPIC_API_KEY: "sk-ant-secret", CLIMPT_TEST_VALUE: "visible" },
    });
    const result = await box.call("Bash", {
      command: `echo "\${ANTHROPIC_API_KEY:-withheld} $CLIMPT_TEST_VALUE $GIT_TERMINAL_PROMPT"`,
    });
    expect(result.content).toBe("withheld visible 0\n[exit code 0]");
  });

  it("refuses a boundary command before anything runs, in every step kind", async () => {
    const dir = tempDir();
    for (const kind of ["work", "verification", "closure"] as const) {
      // A verification step has Bash only when it leaves plan mode.
      const box = toolboxFor(dir, { kind, permissions: { permissionMode: "acceptEdits" } });
      const result = await box.call("Bash", { command: "touch ran.txt; gh issue close 1" });
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(
        /^TOOL-POLICY-003 refused by the boundary policy: `gh issue close` is a boundary action/,
      );
      expect(box.events).toEqual([
        {
          type: "tool_refused",
          id: "call_1",
          tool: "Bash",
          code: "TOOL-POLICY-003",
          reason: expect.stringContaining("gh issue close"),
          input: { command: "touch ran.txt; gh issue close 1" },
        },
      ]);
    }
    expect(existsSync(path.join(dir, "ran.txt"))).toBe(false);
  });

  it("inspects a script written earlier in the working directory", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "finish.sh"), "#!/bin/sh\ngh pr merge 3 --squash\n");
    const result = await toolboxFor(dir).call("Bash", { command: "sh finish.sh" });
    expect(result.content).toMatch(/^TOOL-POLICY-003 .*gh pr merge/);
  });
});
