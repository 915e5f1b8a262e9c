import { describe, expect, it } from "vitest";
import { stripFrontmatter } from "./frontmatter.ts";

describe("stripFrontmatter", () => {
  it("removes a YAML block at the top and says on which line the body starts", () => {
    const raw = "---\ntitle: Issue start\nuv: [issue]\n---\n# Work on {uv-issue}\n";
    expect(stripFrontmatter(raw)).toEqual({ text: "# Work on {uv-issue}\n", firstLine: 5 });
  });

  it("accepts CRLF line ends, an empty block, and a leading byte-order mark", () => {
    expect(stripFrontmatter("---\r\na: 1\r\n---\r\nbody")).toEqual({ text: "body", firstLine: 4 });
    expect(stripFrontmatter("---\n---\nbody")).toEqual({ text: "body", firstLine: 3 });
    expect(stripFrontmatter("\uFEFF---\na: 1\n---\nbody").text).toBe("body");
  });

  it("removes a block that closes at the very end of the file", () => {
    expect(stripFrontmatter("---\na: 1\n---")).toEqual({ text: "", firstLine: 4 });
  });

  it("leaves text alone when the first line is not --- or the block never closes", () => {
    expect(stripFrontmatter("# Title\n---\na\n---\n")).toEqual({
      text: "# Title\n---\na\n---\n",
      firstLine: 1,
    });
    expect(stripFrontmatter("---\nno closing line\n").text).toBe("---\nno closing line\n");
  });

  it("does not treat a later ---- or --- x line as the closing line", () => {
    expect(stripFrontmatter("---\na: 1\n----\n--- x\n---\nbody").text).toBe("body");
  });
});
