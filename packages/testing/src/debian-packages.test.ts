import { describe, expect, it } from "vitest";
import { ensureDebianPackages, hasProgram } from "./debian-packages.ts";

describe("ensureDebianPackages", () => {
  it("finds programs on PATH and by absolute path, and not ones that do not exist", () => {
    expect(hasProgram("sh")).toBe(true);
    expect(hasProgram("/bin/sh")).toBe(true);
    expect(hasProgram("climpt-no-such-program")).toBe(false);
    expect(hasProgram("/nonexistent/climpt-no-such-program")).toBe(false);
  });

  it("does nothing (no apt-get) when every program is there", () => {
    // A package that does not exist: reaching apt-get would throw.
    expect(() => ensureDebianPackages(["climpt-no-such-package"], ["sh", "git"])).not.toThrow();
  });
});
