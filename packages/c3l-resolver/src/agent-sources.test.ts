import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgentPromptSource, resolveSystemPrompt } from "./agent-sources.ts";
import { issuesOf, okValue, registry, tempDir } from "./c3l-resolver.test-helper.ts";

async function agentDir(): Promise<{ base: string; agent: string }> {
  const base = await tempDir();
  const agent = join(base, ".agent", "iterator");
  await mkdir(join(agent, "prompts"), { recursive: true });
  await writeFile(join(base, "outside.md"), "SECRET");
  return { base, agent };
}

describe("resolveSystemPrompt", () => {
  it("reads prompts/system.md by default and strips its frontmatter", async () => {
    const { agent } = await agentDir();
    await writeFile(
      join(agent, "prompts", "system.md"),
      "---\nrole: x\n---\nYou are the iterator.",
    );
    const resolved = okValue(await resolveSystemPrompt(agent));
    expect(resolved.text).toBe("You are the iterator.");
    expect(resolved.source).toEqual({
      kind: "file",
      path: join(agent, "prompts", "system.md"),
      relativePath: "prompts/system.md",
    });
  });

  it("refuses a missing system prompt instead of putting built-in text in its place", async () => {
    const { agent } = await agentDir();
    const [issue, ...more] = issuesOf(await resolveSystemPrompt(agent, "prompts/custom-system.md"));
    expect(more).toEqual([]);
    expect(issue).toMatchObject({
      code: "PR-C3L-012",
      message: `The system prompt ${join(agent, "prompts", "custom-system.md")} does not exist.`,
    });
    expect(issue?.hint).toContain("Create prompts/custom-system.md");
  });

  it("names the file a misspelt systemPromptPath probably meant, at the place it is declared", async () => {
    const { agent } = await agentDir();
    await writeFile(join(agent, "prompts", "system.md"), "You are the iterator.");
    const [issue] = issuesOf(
      await resolveSystemPrompt(agent, "prompts/sytem.md", {
        declaredAt: { file: "/x/agent.json", path: "$.runner.flow.systemPromptPath" },
      }),
    );
    expect(issue).toMatchObject({
      code: "PR-C3L-012",
      file: "/x/agent.json",
      path: "$.runner.flow.systemPromptPath",
    });
    expect(issue?.hint).toMatch(/^Did you mean prompts\/system\.md\?/);
  });

  it.each([
    ["../../outside.md", "PR-C3L-001"],
    ["/etc/passwd", "PR-C3L-002"],
    ["prompts\\..\\..\\x.md", "PR-C3L-006"],
  ])("refuses a systemPromptPath of %j (%s)", async (path, code) => {
    const { agent } = await agentDir();
    expect(issuesOf(await resolveSystemPrompt(agent, path))[0]?.code).toBe(code);
  });

  it("refuses a system prompt that is a symlink out of the agent folder", async () => {
    const { base, agent } = await agentDir();
    await symlink(join(base, "outside.md"), join(agent, "prompts", "system.md"));
    expect(issuesOf(await resolveSystemPrompt(agent))[0]?.code).toBe("PR-C3L-007");
  });
});

describe("createAgentPromptSource", () => {
  it("reads from the registry's prompt folder under the agent folder", async () => {
    const { agent } = await agentDir();
    await mkdir(join(agent, "custom", "steps"), { recursive: true });
    await writeFile(join(agent, "custom", "steps", "a.md"), "from custom");
    const source = createAgentPromptSource(agent, registry({ promptsBase: "custom" }));
    expect(await source.read("steps/a.md")).toBe("from custom");
    expect(source.describe("steps/a.md")).toBe(join(agent, "custom", "steps", "a.md"));
  });

  it("refuses a basePath that leaves the agent folder", () => {
    expect(() => createAgentPromptSource("/a", registry({ promptsBase: "../shared" }))).toThrow(
      expect.objectContaining({ code: "PR-C3L-001" }),
    );
    expect(() => createAgentPromptSource("/a", registry({ promptsBase: "/etc" }))).toThrow(
      expect.objectContaining({ code: "PR-C3L-002" }),
    );
  });

  it("refuses a prompt folder that is a symlink to somewhere outside the agent folder", async () => {
    const { base, agent } = await agentDir();
    await mkdir(join(base, "elsewhere"));
    await writeFile(join(base, "elsewhere", "a.md"), "SECRET");
    await symlink(join(base, "elsewhere"), join(agent, "linked"), "dir");
    const source = createAgentPromptSource(agent, registry({ promptsBase: "linked" }));
    await expect(source.read("a.md")).rejects.toMatchObject({ code: "PR-C3L-007" });
  });
});
