import { ClimptError } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { createMemoryPromptSource } from "./prompt-source.ts";

describe("createMemoryPromptSource", () => {
  it("reads by normalized relative path and returns undefined for a missing file", async () => {
    const source = createMemoryPromptSource({ "steps/a/b/f_default.md": "hello" });
    expect(await source.read("./steps//a/b/f_default.md")).toBe("hello");
    expect(await source.read("steps/a/b/f_other.md")).toBeUndefined();
  });

  it("describes files under its label", () => {
    expect(createMemoryPromptSource({}).describe("x.md")).toBe("memory:x.md");
    expect(createMemoryPromptSource({}, { label: "/virtual/prompts" }).describe("x.md")).toBe(
      "/virtual/prompts/x.md",
    );
  });

  it("applies the same path rules as the file system source", async () => {
    const source = createMemoryPromptSource({ "a.md": "x" });
    await expect(source.read("../a.md")).rejects.toMatchObject({ code: "PR-C3L-001" });
    await expect(source.read("/a.md")).rejects.toSatisfy(ClimptError.isInstance);
    expect(() => createMemoryPromptSource({ "..\\a.md": "x" })).toThrow(/backslash/);
  });
});
