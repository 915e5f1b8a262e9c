import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join, sep } from "node:path";
import { ClimptError } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { tempDir } from "./c3l-resolver.test-helper.ts";
import { createFsPromptSource } from "./fs-prompt-source.ts";

/** A temp folder with `root/` (the prompt folder) and `outside/secret.md` beside it. */
async function layout() {
  const base = await tempDir();
  const root = join(base, "root");
  const outside = join(base, "outside");
  await mkdir(join(root, "steps", "initial", "issue"), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(root, "steps", "initial", "issue", "f_default.md"), "inside prompt");
  await writeFile(join(outside, "secret.md"), "SECRET");
  return { base, root, outside };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (ClimptError.isInstance(error)) return error.code;
    throw error;
  }
  throw new Error("expected the read to throw");
}

describe("createFsPromptSource", () => {
  it("reads a file under the root and describes it by its absolute path", async () => {
    const { root } = await layout();
    const source = createFsPromptSource(root);
    expect(await source.read("steps/initial/issue/f_default.md")).toBe("inside prompt");
    expect(source.describe("steps/initial/issue/f_default.md")).toBe(
      [root, "steps", "initial", "issue", "f_default.md"].join(sep),
    );
  });

  it("reads a file whole, as readFileSync does: empty, multi-byte, invalid UTF-8, large", async () => {
    const { root } = await layout();
    const files: Record<string, Buffer> = {
      "empty.md": Buffer.alloc(0),
      "multi.md": Buffer.from("é — 日本 🙂\n", "utf8"),
      "invalid.md": Buffer.from([0x61, 0xff, 0xc3, 0x62]),
      "large.md": Buffer.from("ab\n".repeat(100_000), "utf8"),
    };
    for (const [name, bytes] of Object.entries(files)) await writeFile(join(root, name), bytes);
    const source = createFsPromptSource(root);
    for (const [name, bytes] of Object.entries(files)) {
      expect(await source.read(name)).toBe(bytes.toString("utf8"));
      expect(await source.read(name)).toBe(readFileSync(join(root, name), "utf8"));
    }
  });

  it("returns undefined for a missing file, a missing folder, and a missing root", async () => {
    const { root, base } = await layout();
    const source = createFsPromptSource(root);
    expect(await source.read("steps/initial/issue/f_other.md")).toBeUndefined();
    expect(await source.read("steps/nothing/here/f_default.md")).toBeUndefined();
    expect(await source.read("steps/initial/issue/f_default.md/x.md")).toBeUndefined();
    expect(await createFsPromptSource(join(base, "no-such-dir")).read("a.md")).toBeUndefined();
  });

  it.each([
    ["../outside/secret.md", "PR-C3L-001"],
    ["steps/../../outside/secret.md", "PR-C3L-001"],
    ["/etc/passwd", "PR-C3L-002"],
    ["steps/initial/issue/f_default.md\0", "PR-C3L-003"],
    ["..\\outside\\secret.md", "PR-C3L-006"],
  ])("refuses the lexical attack %j with %s", async (path, code) => {
    const { root } = await layout();
    expect(await codeOf(createFsPromptSource(root).read(path))).toBe(code);
  });

  it("refuses a file symlink that points outside the root (PR-C3L-007)", async () => {
    const { root, outside } = await layout();
    await symlink(join(outside, "secret.md"), join(root, "steps", "initial", "issue", "f_leak.md"));
    const source = createFsPromptSource(root);
    expect(await codeOf(source.read("steps/initial/issue/f_leak.md"))).toBe("PR-C3L-007");
  });

  it("refuses a relative file symlink that climbs out of the root", async () => {
    const { root } = await layout();
    await symlink(
      "../../../../outside/secret.md",
      join(root, "steps", "initial", "issue", "f_up.md"),
    );
    expect(await codeOf(createFsPromptSource(root).read("steps/initial/issue/f_up.md"))).toBe(
      "PR-C3L-007",
    );
  });

  it("refuses a directory symlink on the way that leads outside", async () => {
    const { root, outside } = await layout();
    await symlink(outside, join(root, "steps", "linked"), "dir");
    const source = createFsPromptSource(root);
    expect(await codeOf(source.read("steps/linked/secret.md"))).toBe("PR-C3L-007");
    // Also when the file behind it does not exist: a link must not reveal what is outside.
    expect(await codeOf(source.read("steps/linked/missing.md"))).toBe("PR-C3L-007");
  });

  it("refuses a dangling symlink that points outside, and treats one inside as missing", async () => {
    const { root, outside } = await layout();
    const dir = join(root, "steps", "initial", "issue");
    await symlink(join(outside, "not-there.md"), join(dir, "f_dangling_out.md"));
    await symlink(join(dir, "not-there.md"), join(dir, "f_dangling_in.md"));
    const source = createFsPromptSource(root);
    expect(await codeOf(source.read("steps/initial/issue/f_dangling_out.md"))).toBe("PR-C3L-007");
    expect(await source.read("steps/initial/issue/f_dangling_in.md")).toBeUndefined();
  });

  it("follows symlinks that stay inside the root, for files and folders", async () => {
    const { root } = await layout();
    await symlink(join(root, "steps", "initial"), join(root, "steps", "continuation"), "dir");
    await symlink("f_default.md", join(root, "steps", "initial", "issue", "f_alias.md"));
    const source = createFsPromptSource(root);
    expect(await source.read("steps/continuation/issue/f_default.md")).toBe("inside prompt");
    expect(await source.read("steps/initial/issue/f_alias.md")).toBe("inside prompt");
  });

  it("accepts a root that is itself reached through a symlink", async () => {
    const { base, root } = await layout();
    await symlink(root, join(base, "root-link"), "dir");
    const source = createFsPromptSource(join(base, "root-link"));
    expect(await source.read("steps/initial/issue/f_default.md")).toBe("inside prompt");
  });

  it("reports a folder or a symlink loop as unreadable (PR-C3L-009)", async () => {
    const { root } = await layout();
    await symlink("loop-b.md", join(root, "loop-a.md"));
    await symlink("loop-a.md", join(root, "loop-b.md"));
    const source = createFsPromptSource(root);
    expect(await codeOf(source.read("steps/initial"))).toBe("PR-C3L-009");
    expect(await codeOf(source.read("loop-a.md"))).toBe("PR-C3L-009");
  });

  it.skipIf(process.platform === "win32")(
    "refuses a FIFO as not a regular file (PR-C3L-009) instead of waiting for a writer",
    async () => {
      const { root } = await layout();
      execFileSync("mkfifo", [join(root, "pipe.md")]);
      await symlink("pipe.md", join(root, "to-pipe.md"));
      const source = createFsPromptSource(root);
      expect(await codeOf(source.read("pipe.md"))).toBe("PR-C3L-009");
      expect(await codeOf(source.read("to-pipe.md"))).toBe("PR-C3L-009");
    },
  );

  it("treats names that merely look like traversal as ordinary names", async () => {
    const { root } = await layout();
    await mkdir(join(root, "..foo"));
    await writeFile(join(root, "..foo", "%2e%2e.md"), "odd but inside");
    expect(await createFsPromptSource(root).read("..foo/%2e%2e.md")).toBe("odd but inside");
  });

  describe("with `within` (a prompt folder confined to its agent folder)", () => {
    it("reads normally when the prompt folder is inside", async () => {
      const { base, root } = await layout();
      const source = createFsPromptSource(root, { within: base });
      expect(await source.read("steps/initial/issue/f_default.md")).toBe("inside prompt");
    });

    it("refuses a prompt folder that is a symlink leading out of the agent folder", async () => {
      const { base, outside } = await layout();
      const agent = join(base, "agent");
      await mkdir(agent);
      await symlink(outside, join(agent, "prompts"), "dir");
      const source = createFsPromptSource(join(agent, "prompts"), { within: agent });
      expect(await codeOf(source.read("secret.md"))).toBe("PR-C3L-007");
    });

    it("refuses a prompt folder that is lexically outside the agent folder", async () => {
      const { base, outside } = await layout();
      const source = createFsPromptSource(outside, { within: join(base, "root") });
      expect(await codeOf(source.read("secret.md"))).toBe("PR-C3L-001");
    });
  });
});
