import { posix, win32 } from "node:path";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { issuesOf, okValue } from "./c3l-resolver.test-helper.ts";
import { checkPathSegment, checkRelativePath, isPathSegment } from "./relative-path.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took 10 s beside two CPU loops at load 25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const ctx = { what: "prompt path" };

describe("checkRelativePath", () => {
  it("normalizes a safe path to /-separated segments without . or empty segments", () => {
    expect(okValue(checkRelativePath("steps/./initial//issue/f_default.md", ctx))).toBe(
      "steps/initial/issue/f_default.md",
    );
  });

  it.each([
    ["../secret.md", "PR-C3L-001"],
    ["steps/../../secret.md", "PR-C3L-001"],
    ["steps/initial/..", "PR-C3L-001"],
    ["/etc/passwd", "PR-C3L-002"],
    ["C:/Windows/win.ini", "PR-C3L-002"],
    ["c:secret.md", "PR-C3L-002"],
    // Normalized to `C:..`: drive C's current folder's parent on Windows.
    ["./C:..", "PR-C3L-002"],
    ["steps//d:../x.md", "PR-C3L-002"],
    ["\\\\server\\share\\x.md", "PR-C3L-002"],
    ["steps/f_default.md\0.txt", "PR-C3L-003"],
    ["..\\..\\secret.md", "PR-C3L-006"],
    ["steps\\initial\\f.md", "PR-C3L-006"],
  ])("rejects %j with %s", (value, code) => {
    const [issue] = issuesOf(checkRelativePath(value, ctx));
    expect(issue?.code).toBe(code);
    expect(issue?.message).toContain(JSON.stringify(value));
    expect(issue?.hint).toBeTruthy();
  });

  it("keeps names that only look like traversal: they are ordinary folder names", () => {
    expect(okValue(checkRelativePath("..foo/%2e%2e/．．/x.md", ctx))).toBe(
      "..foo/%2e%2e/．．/x.md",
    );
  });

  it("never accepts a path that resolves outside the root, on POSIX or Windows", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "..", ".", "", "/", "\\", "C:", "\0", "b.md", "..x"), {
          maxLength: 8,
        }),
        (parts) => {
          const value = parts.join("");
          const result = checkRelativePath(value, ctx);
          if (!result.ok) return;
          expect(posix.relative("/root", posix.resolve("/root", result.value))).not.toMatch(
            /^\.\.(\/|$)/,
          );
          const onWindows = win32.relative("C:\\root", win32.resolve("C:\\root", result.value));
          expect(onWindows).not.toMatch(/^\.\.(\\|$)/);
          expect(win32.isAbsolute(onWindows)).toBe(false);
        },
      ),
    );
  });
});

describe("checkPathSegment", () => {
  it.each([
    ["", "PR-C3L-008"],
    [".", "PR-C3L-008"],
    ["a/b", "PR-C3L-008"],
    ["..", "PR-C3L-001"],
    ["/etc", "PR-C3L-002"],
    ["a\0", "PR-C3L-003"],
    ["a\\b", "PR-C3L-006"],
  ])("rejects the C3L value %j with %s", (value, code) => {
    expect(checkPathSegment(value, { what: "c2 value", path: "$.steps.x.c2" })).toMatchObject({
      code,
      path: "$.steps.x.c2",
    });
  });

  it("accepts plain names, including dashes and dots inside", () => {
    expect(checkPathSegment("git-dirty", { what: "adaptation value" })).toBeUndefined();
    expect(checkPathSegment("v1.2", { what: "edition value" })).toBeUndefined();
  });
});

describe("the checks' fast paths", () => {
  /** The rules as first written, one problem after another, for comparison. */
  function reference(value: string): string | undefined {
    const segments = value.split("/");
    if (value.includes("\0")) return undefined;
    if (value.startsWith("/") || value.startsWith("\\\\")) return undefined;
    if (segments.some((segment) => /^[A-Za-z]:/.test(segment))) return undefined;
    if (value.includes("\\") || segments.includes("..")) return undefined;
    return segments.filter((segment) => segment !== "" && segment !== ".").join("/");
  }

  it("accept and normalize exactly what the full rules do, for every short path", () => {
    const alphabet = ["a", ".", "/", "\\", ":", "C", "\0"];
    let values = [""];
    for (let length = 0; length <= 5; length += 1) {
      for (const value of values) {
        const checked = checkRelativePath(value, ctx);
        expect(checked.ok ? checked.value : undefined, JSON.stringify(value)).toBe(
          reference(value),
        );
        const expectedSegment =
          reference(value) !== undefined && value !== "" && value !== "." && !value.includes("/");
        expect(checkPathSegment(value, ctx) === undefined, JSON.stringify(value)).toBe(
          expectedSegment,
        );
        expect(isPathSegment(value), JSON.stringify(value)).toBe(expectedSegment);
      }
      values = values.flatMap((value) => alphabet.map((char) => value + char));
    }
  });
});
