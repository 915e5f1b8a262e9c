import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ProtectedPath } from "./protected-paths.ts";
import { repoWithRemote } from "./sandbox/sandbox.test-helper.ts";
import { toolboxFor, useTempDirs } from "./tools.test-helper.ts";

const JOURNAL_REASON = "the run's journal is the runner's record of the run.";
const AGENTS_REASON = "agent definitions decide what runs outside the sandbox.";

/** A working directory with a journal folder and an agent folder, both protected. */
function workspace(work: string): { protectedPaths: ProtectedPath[] } {
  mkdirSync(path.join(work, "tmp", "logs", "demo"), { recursive: true });
  writeFileSync(path.join(work, "tmp", "logs", "demo", "run-1.jsonl"), '{"type":"run_start"}\n');
  mkdirSync(path.join(work, ".agent", "demo"), { recursive: true });
  writeFileSync(path.join(work, ".agent", "demo", "agent.json"), '{"name":"demo"}\n');
  return {
    protectedPaths: [
      { path: "tmp/logs/demo", reason: JOURNAL_REASON },
      { path: path.join(work, ".agent"), reason: AGENTS_REASON },
    ],
  };
}

describe("protected paths", () => {
  const tempDir = useTempDirs();

  it("Write and Edit refuse them, through a link or an absolute path too, and write elsewhere", async () => {
    const work = tempDir();
    const box = toolboxFor(work, workspace(work));
    symlinkSync(".agent/demo", path.join(work, "innocent"));
    const attempts = [
      box.call("Write", { file_path: "tmp/logs/demo/run-1.jsonl", content: "forged\n" }),
      box.call("Write", { file_path: "tmp/logs/demo/run-2.jsonl", content: "new\n" }),
      box.call("Write", { file_path: ".agent/demo/agent.json", content: "{}" }),
      box.call("Write", { file_path: ".agent/other/agent.json", content: "{}" }),
      box.call("Write", { file_path: path.join(work, ".agent/demo/x.md"), content: "x" }),
      box.call("Write", { file_path: "innocent/agent.json", content: "{}" }),
      box.call("Edit", {
        file_path: ".agent/demo/agent.json",
        old_string: "demo",
        new_string: "evil",
      }),
    ];
    const results = [];
    // One at a time, as a step runs them.
    for (const attempt of attempts) results.push(await attempt);
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/^TOOL-POLICY-004 refused by the working-directory policy: /);
    }
    expect(results[0]?.content).toContain(
      `"tmp/logs/demo/run-1.jsonl" is inside tmp/logs/demo, which no tool of this run may change: ${JOURNAL_REASON}`,
    );
    expect(results[5]?.content).toContain(`is inside .agent, which no tool of this run may change`);
    expect(box.events.every((event) => event.type === "tool_refused")).toBe(true);
    expect(readFileSync(path.join(work, "tmp/logs/demo/run-1.jsonl"), "utf8")).toBe(
      '{"type":"run_start"}\n',
    );
    expect(readFileSync(path.join(work, ".agent/demo/agent.json"), "utf8")).toBe(
      '{"name":"demo"}\n',
    );
    expect(existsSync(path.join(work, ".agent/other"))).toBe(false);
    // Reading them, and writing next to them, is fine.
    expect((await box.call("Read", { file_path: ".agent/demo/agent.json" })).isError).toBe(false);
    expect((await box.call("Write", { file_path: "tmp/notes.txt", content: "n" })).isError).toBe(
      false,
    );
    expect((await box.call("Write", { file_path: ".agents.md", content: "n" })).isError).toBe(
      false,
    );
  });

  it("leaves a protected path outside the working directory to the confinement", async () => {
    const dir = tempDir();
    const work = path.join(dir, "work");
    mkdirSync(work);
    const box = toolboxFor(work, {
      protectedPaths: [{ path: path.join(dir, "elsewhere"), reason: AGENTS_REASON }],
    });
    expect((await box.call("Write", { file_path: "a.txt", content: "a" })).isError).toBe(false);
  });

  it("protects the whole working directory when a protected folder holds it", async () => {
    const dir = tempDir();
    const work = path.join(dir, "agent", "work");
    mkdirSync(work, { recursive: true });
    const box = toolboxFor(work, {
      protectedPaths: [{ path: path.join(dir, "agent"), reason: AGENTS_REASON }],
    });
    const write = await box.call("Write", { file_path: "a.txt", content: "a" });
    expect(write.content).toContain(`"a.txt" is inside the working directory, which no tool`);
    const bash = await box.call("Bash", { command: "echo a > b.txt || echo bash-refused" });
    expect(bash.content).toContain("bash-refused");
    expect(readdirSync(work)).toEqual([]);
  });

  it("keeps them read-only inside the sandbox: no write, removal, rename or link, of them or a folder above", async () => {
    const dir = tempDir();
    const { work } = repoWithRemote(dir);
    const box = toolboxFor(work, workspace(work));
    const result = await box.call("Bash", {
      command: [
        "echo forged > tmp/logs/demo/run-1.jsonl || echo journal-write-refused",
        "rm -f tmp/logs/demo/run-1.jsonl || true",
        "mkfifo tmp/logs/demo/run-2.jsonl 2>/dev/null || echo journal-fifo-refused",
        "mv tmp/logs/demo tmp/logs/moved 2>/dev/null || echo journal-move-refused",
        "mv tmp/logs tmp/moved 2>/dev/null || echo logs-move-refused",
        "mv tmp moved 2>/dev/null || echo tmp-move-refused",
        "rm -rf tmp 2>/dev/null || echo tmp-remove-refused",
        "ln tmp/logs/demo/run-1.jsonl hard-link 2>/dev/null || echo link-refused",
        `node -e 'require("fs").writeFileSync(".agent/demo/agent.json", "{}")' 2>/dev/null || echo agent-write-refused`,
        "mkdir .agent/evil 2>/dev/null || echo agent-mkdir-refused",
        "mv .agent .agent-old 2>/dev/null || echo agent-move-refused",
        "echo fine > tmp/notes.txt && echo tmp-write-ok",
        "git add -A && git commit -qm work && echo committed",
      ].join("; "),
    });
    for (const word of [
      "journal-write-refused",
      "journal-fifo-refused",
      "journal-move-refused",
      "logs-move-refused",
      "tmp-move-refused",
      "tmp-remove-refused",
      "link-refused",
      "agent-write-refused",
      "agent-mkdir-refused",
      "agent-move-refused",
      "tmp-write-ok",
      "committed",
    ]) {
      expect(result.content, word).toContain(word);
    }
    expect(readFileSync(path.join(work, "tmp/logs/demo/run-1.jsonl"), "utf8")).toBe(
      '{"type":"run_start"}\n',
    );
    expect(readdirSync(path.join(work, "tmp/logs/demo"))).toEqual(["run-1.jsonl"]);
    expect(readFileSync(path.join(work, ".agent/demo/agent.json"), "utf8")).toBe(
      '{"name":"demo"}\n',
    );
    expect(readdirSync(path.join(work, ".agent")).sort()).toEqual(["demo"]);
    expect(existsSync(path.join(work, "hard-link"))).toBe(false);
  });

  it("leaves an absent protected path unbound, so no placeholder lands in the working directory", async () => {
    const dir = tempDir();
    const { work } = repoWithRemote(dir);
    const box = toolboxFor(work, {
      protectedPaths: [{ path: ".agent", reason: AGENTS_REASON }],
    });
    const result = await box.call("Bash", {
      command: "echo x > new.txt && git add -A && git status --porcelain",
    });
    expect(result.content).toBe("A  new.txt\n[exit code 0]");
    expect(existsSync(path.join(work, ".agent"))).toBe(false);
  });
});
