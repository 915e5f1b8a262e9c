import { mkdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { issuesOf, okValue, registry, tempDir } from "./c3l-resolver.test-helper.ts";
import { createFsPromptSource } from "./fs-prompt-source.ts";
import { createMemoryPromptSource } from "./prompt-source.ts";
import { resolvePrompt } from "./resolve-prompt.ts";

const closure = {
  kind: "c3l",
  c1: "steps",
  c2: "closure",
  c3: "issue",
  edition: "failed",
} as const;
const dirty = { ...closure, adaptation: "git-dirty" };

async function promptsOnDisk(files: Record<string, string>): Promise<string> {
  const root = join(await tempDir(), "prompts");
  await mkdir(root, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

describe("resolvePrompt", () => {
  it("uses the adaptation file when it exists", async () => {
    const source = createMemoryPromptSource({
      "steps/closure/issue/f_failed_git-dirty.md": "dirty tree",
      "steps/closure/issue/f_failed.md": "generic failure",
    });
    const resolved = okValue(await resolvePrompt({ registry: registry(), ref: dirty, source }));
    expect(resolved.text).toBe("dirty tree");
    expect(resolved.source).toEqual({
      kind: "file",
      path: "memory:steps/closure/issue/f_failed_git-dirty.md",
      relativePath: "steps/closure/issue/f_failed_git-dirty.md",
    });
  });

  it("falls back to the no-adaptation file when the adaptation file is missing", async () => {
    const source = createMemoryPromptSource({ "steps/closure/issue/f_failed.md": "generic" });
    const resolved = okValue(await resolvePrompt({ registry: registry(), ref: dirty, source }));
    expect(resolved.text).toBe("generic");
    expect(resolved.tried).toEqual([
      "memory:steps/closure/issue/f_failed_git-dirty.md",
      "memory:steps/closure/issue/f_failed.md",
    ]);
  });

  it("strips frontmatter and reports the body's first file line", async () => {
    const source = createMemoryPromptSource({
      "steps/closure/issue/f_failed.md": "---\ntitle: x\n---\nbody",
    });
    const resolved = okValue(await resolvePrompt({ registry: registry(), ref: closure, source }));
    expect(resolved).toMatchObject({ text: "body", firstLine: 4 });
  });

  it("resolves a path reference relative to the same prompt folder", async () => {
    const root = await promptsOnDisk({ "checks/final.md": "final check" });
    const resolved = okValue(
      await resolvePrompt({
        registry: registry(),
        ref: { kind: "path", path: "checks/final.md" },
        source: createFsPromptSource(root),
      }),
    );
    expect(resolved.text).toBe("final check");
    expect(resolved.source).toMatchObject({ path: join(root, "checks", "final.md") });
  });

  it("fails with PR-C3L-004 naming every absolute path tried", async () => {
    const root = await promptsOnDisk({});
    const [issue, ...rest] = issuesOf(
      await resolvePrompt({
        registry: registry(),
        ref: dirty,
        source: createFsPromptSource(root),
        stepId: "closure.issue",
      }),
    );
    expect(rest).toEqual([]);
    expect(issue?.code).toBe("PR-C3L-004");
    expect(issue?.message).toContain('step "closure.issue"');
    expect(issue?.message).toContain(join(root, "steps/closure/issue/f_failed_git-dirty.md"));
    expect(issue?.message).toContain(join(root, "steps/closure/issue/f_failed.md"));
    expect(issue?.hint).toContain("fallbackKey");
  });

  it("names the file a misspelt prompt probably is, on disk and in memory", async () => {
    const root = await promptsOnDisk({ "steps/closure/issue/f_failed_git-dirt.md": "x" });
    const [onDisk] = issuesOf(
      await resolvePrompt({ registry: registry(), ref: dirty, source: createFsPromptSource(root) }),
    );
    expect(onDisk?.hint).toMatch(
      new RegExp(`^Did you mean ${join(root, "steps/closure/issue/f_failed_git-dirt.md")}\\?`),
    );
    const [inMemory] = issuesOf(
      await resolvePrompt({
        registry: registry(),
        ref: dirty,
        source: createMemoryPromptSource({ "steps/closure/issue/f_faild_git-dirty.md": "x" }),
      }),
    );
    expect(inMemory?.hint).toContain(
      "Did you mean memory:steps/closure/issue/f_faild_git-dirty.md?",
    );
    const [nothingLike] = issuesOf(
      await resolvePrompt({
        registry: registry(),
        ref: dirty,
        source: createMemoryPromptSource({ "steps/closure/issue/notes.md": "x" }),
      }),
    );
    expect(nothingLike?.hint).not.toContain("Did you mean");
  });

  it("uses the fallbackKey template only when no file exists", async () => {
    const empty = createMemoryPromptSource({});
    const fallback = okValue(
      await resolvePrompt({
        registry: registry(),
        ref: closure,
        source: empty,
        fallbackKey: "issue_closure_default",
      }),
    );
    expect(fallback.source).toEqual({ kind: "fallback", key: "issue_closure_default" });
    expect(fallback.text).toContain("{uv-issue}");
    expect(fallback.tried).toEqual(["memory:steps/closure/issue/f_failed.md"]);

    const withFile = createMemoryPromptSource({ "steps/closure/issue/f_failed.md": "mine" });
    const file = okValue(
      await resolvePrompt({
        registry: registry(),
        ref: closure,
        source: withFile,
        fallbackKey: "issue_closure_default",
      }),
    );
    expect(file.text).toBe("mine");
  });

  it("reports an unknown fallbackKey with the seed's exact message", async () => {
    const [issue] = issuesOf(
      await resolvePrompt({
        registry: registry(),
        ref: closure,
        source: createMemoryPromptSource({}),
        fallbackKey: "closure.issue",
        stepId: "closure.issue",
        registryFile: "/a/steps_registry.json",
      }),
    );
    expect(issue).toMatchObject({
      code: "PR-C3L-005",
      message: 'No fallback prompt found for key: "closure.issue" (step: closure.issue)',
      file: "/a/steps_registry.json",
      path: '$.steps["closure.issue"].fallbackKey',
    });
  });

  it("turns an unsafe registry value into a problem before touching the disk", async () => {
    const root = await promptsOnDisk({});
    const [issue] = issuesOf(
      await resolvePrompt({
        registry: registry(),
        ref: { ...closure, c2: "..", c3: ".." },
        source: createFsPromptSource(root),
      }),
    );
    expect(issue?.code).toBe("PR-C3L-001");
  });

  it("turns a symlink escape into a PR-C3L-007 problem instead of reading the file", async () => {
    const base = await tempDir();
    await writeFile(join(base, "secret.md"), "SECRET");
    const root = await promptsOnDisk({});
    await mkdir(join(root, "steps", "closure", "issue"), { recursive: true });
    await symlink(join(base, "secret.md"), join(root, "steps", "closure", "issue", "f_failed.md"));
    const result = await resolvePrompt({
      registry: registry(),
      ref: closure,
      source: createFsPromptSource(root),
      fallbackKey: "issue_closure_default",
    });
    // The fallback does not apply: the file exists, it is just not allowed.
    expect(issuesOf(result)[0]?.code).toBe("PR-C3L-007");
  });
});
