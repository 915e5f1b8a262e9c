import { describe, expect, it } from "vitest";
import { globToRegExp, literalPrefix } from "./glob-pattern.ts";

function matches(pattern: string, paths: string[]): string[] {
  const re = globToRegExp(pattern);
  return paths.filter((p) => re.test(p));
}

const tree = [
  "a.ts",
  "b.js",
  "src/c.ts",
  "src/deep/d.ts",
  "src/deep/e.tsx",
  ".hidden.ts",
  "docs/x.md",
];

describe("globToRegExp", () => {
  it("keeps * and ? inside one path segment", () => {
    expect(matches("*.ts", tree)).toEqual(["a.ts", ".hidden.ts"]);
    expect(matches("src/?.ts", tree)).toEqual(["src/c.ts"]);
  });

  it("lets ** span directories, including none", () => {
    expect(matches("**/*.ts", tree)).toEqual(["a.ts", "src/c.ts", "src/deep/d.ts", ".hidden.ts"]);
    expect(matches("src/**", tree)).toEqual(["src/c.ts", "src/deep/d.ts", "src/deep/e.tsx"]);
    expect(matches("src/**/d.ts", tree)).toEqual(["src/deep/d.ts"]);
  });

  it("supports classes, negated classes, alternatives and escapes", () => {
    expect(matches("[ab].*", tree)).toEqual(["a.ts", "b.js"]);
    expect(matches("[!a].*", tree)).toEqual(["b.js"]);
    expect(matches("**/*.{ts,tsx}", tree)).toEqual([
      "a.ts",
      "src/c.ts",
      "src/deep/d.ts",
      "src/deep/e.tsx",
      ".hidden.ts",
    ]);
    expect(globToRegExp("a\\*b").test("a*b")).toBe(true);
    expect(globToRegExp("a\\*b").test("axb")).toBe(false);
  });

  it("treats regular-expression characters literally", () => {
    expect(globToRegExp("a+b(c).ts").test("a+b(c).ts")).toBe(true);
    expect(globToRegExp("a.ts").test("axts")).toBe(false);
  });

  it("finds the fixed directory a walk can start from", () => {
    expect(literalPrefix("src/deep/*.ts")).toBe("src/deep");
    expect(literalPrefix("src/**/x.ts")).toBe("src");
    expect(literalPrefix("*.ts")).toBe("");
  });
});
