import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayPath, splitLines, unquoteGitPath } from "./paths.ts";

/** Git's own quoting (quote_c_style with core.quotePath on), to check the round trip. */
function gitQuote(path: string): string {
  const bytes = Buffer.from(path, "utf8");
  let needs = false;
  let body = "";
  const names: Record<number, string> = {
    7: "a",
    8: "b",
    9: "t",
    10: "n",
    11: "v",
    12: "f",
    13: "r",
  };
  for (const byte of bytes) {
    if (byte === 0x22 || byte === 0x5c) {
      needs = true;
      body += `\\${String.fromCharCode(byte)}`;
    } else if (names[byte] !== undefined) {
      needs = true;
      body += `\\${names[byte]}`;
    } else if (byte < 0x20 || byte >= 0x7f) {
      needs = true;
      body += `\\${byte.toString(8).padStart(3, "0")}`;
    } else {
      body += String.fromCharCode(byte);
    }
  }
  return needs ? `"${body}"` : path;
}

describe("unquoteGitPath", () => {
  it("decodes octal UTF-8 bytes, escaped quotes and tabs as git prints them", () => {
    expect(unquoteGitPath('"r\\303\\251sum\\303\\251 \\303\\274n\\303\\257code.md"')).toBe(
      "résumé ünïcode.md",
    );
    expect(unquoteGitPath('"say \\"hi\\".txt"')).toBe('say "hi".txt');
    expect(unquoteGitPath('"tab\\tname.txt"')).toBe("tab\tname.txt");
    expect(unquoteGitPath('"back\\\\slash"')).toBe("back\\slash");
  });

  it("leaves an unquoted path alone", () => {
    expect(unquoteGitPath("plain.txt")).toBe("plain.txt");
    expect(unquoteGitPath('"')).toBe('"');
  });

  it("inverts git's quoting for any path", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1 }), (path) => {
        expect(unquoteGitPath(gitQuote(path))).toBe(path);
      }),
    );
  });
});

describe("displayPath", () => {
  it("turns file URLs and absolute paths inside the working directory into relative paths", () => {
    expect(displayPath("file:///work/project/src/a.ts", "/work/project")).toBe("src/a.ts");
    expect(displayPath("/work/project/src/a b.ts", "/work/project")).toBe("src/a b.ts");
  });

  it("keeps paths outside the working directory as printed", () => {
    expect(displayPath("/elsewhere/a.ts", "/work/project")).toBe("/elsewhere/a.ts");
    expect(displayPath("/work/project-other/a.ts", "/work/project")).toBe(
      "/work/project-other/a.ts",
    );
    expect(displayPath("src/a.ts", "/work/project")).toBe("src/a.ts");
  });
});

describe("splitLines", () => {
  it("treats CRLF and lone CR as line breaks", () => {
    expect(splitLines("a\r\nb\rc\nd")).toEqual(["a", "b", "c", "d"]);
  });
});
