import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolboxFor, useTempDirs } from "../tools.test-helper.ts";

/** The `NAME=value` lines a command printed. */
function printed(content: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of content.split("\n")) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) values[match[1]] = match[2];
  }
  return values;
}

describe("the sandbox's temporary folder", () => {
  const tempDir = useTempDirs();

  it("is a writable folder that exists: $TMPDIR (and TMP, TEMP, mktemp) work", async () => {
    const work = tempDir();
    const result = await toolboxFor(work).call("Bash", {
      command: [
        'echo "TMPDIR=$TMPDIR"',
        'echo "TMP=$TMP"',
        'echo "TEMP=$TEMP"',
        'printf "body from the agent\\n" > "$TMPDIR/x"',
        'echo "READ=$(cat "$TMPDIR/x")"',
        'f=$(mktemp) && echo "MKTEMP=$f"',
        'node -e \'console.log("NODE=" + require("os").tmpdir())\'',
      ].join("; "),
    });
    expect(result.isError).toBe(false);
    const values = printed(result.content);
    expect(values.READ).toBe("body from the agent");
    expect(values.TMPDIR).toMatch(/^\/.+/);
    expect(values.TMPDIR).not.toBe("/tmp/claude");
    expect(values.TMP).toBe(values.TMPDIR);
    expect(values.TEMP).toBe(values.TMPDIR);
    expect(values.NODE).toBe(values.TMPDIR);
    expect(path.dirname(values.MKTEMP ?? "")).toBe(values.TMPDIR);
    // Nothing of it is left in the working directory.
    expect(readdirSync(work)).toEqual([]);
  });

  it("is private to one command: gone afterwards, another one for a concurrent command", async () => {
    const work = tempDir();
    // Each command waits until the other has started, so both run at the same time.
    const command = (me: string, other: string): string =>
      [
        `echo "TMPDIR=$TMPDIR"`,
        `echo ${me} > "$TMPDIR/${me}"`,
        `touch ${me}-started`,
        `while [ ! -e ${other}-started ]; do sleep 0.05; done`,
        `echo "SEEN=$(ls "$TMPDIR" | tr '\\n' ' ')"`,
      ].join("; ");
    const [a, b] = await Promise.all([
      toolboxFor(work).call("Bash", { command: command("a", "b"), timeout: 120_000 }),
      toolboxFor(work).call("Bash", { command: command("b", "a"), timeout: 120_000 }),
    ]);
    const first = printed(a?.content ?? "");
    const second = printed(b?.content ?? "");
    expect(first.TMPDIR).toBeDefined();
    expect(second.TMPDIR).toBeDefined();
    expect(first.TMPDIR).not.toBe(second.TMPDIR);
    expect(first.SEEN).toBe("a ");
    expect(second.SEEN).toBe("b ");
    expect(existsSync(first.TMPDIR ?? "")).toBe(false);
    expect(existsSync(second.TMPDIR ?? "")).toBe(false);
  });

  it("keeps the runtime's shared /tmp/claude read-only when it exists", async () => {
    const work = tempDir();
    const shared = "/tmp/claude";
    // Made when missing and left in place: other processes on the machine (the other packages'
    // tests running at the same time, Claude Code) may be using it, and removing it under a
    // sandbox that is about to bind it fails that command ("Can't find source path").
    if (!existsSync(shared)) mkdirSync(shared, { recursive: true });
    const marker = path.join(shared, `climpt-test-${process.pid}-${Date.now()}`);
    try {
      const result = await toolboxFor(work).call("Bash", {
        command: `echo left > ${marker} && echo "WROTE=yes"; echo "TMPDIR=$TMPDIR"`,
      });
      const values = printed(result.content);
      expect(values.WROTE).toBeUndefined();
      expect(values.TMPDIR).not.toBe(shared);
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(marker, { force: true });
    }
  });

  it("does not change the line numbers in the shell's own messages", async () => {
    const work = tempDir();
    writeFileSync(path.join(work, "keep"), "");
    const result = await toolboxFor(work).call("Bash", { command: "true\nno-such-command-xyz" });
    expect(result.content).toMatch(/ 2: no-such-command-xyz: not found/);
  });
});
