import { defineProject } from "vitest/config";
import { packageTestOptions } from "../../vitest.shared.ts";

export default defineProject({
  test: packageTestOptions("viewer", {
    // The browser tests drive Debian's Chromium: install it once when it is missing.
    globalSetup: ["./test/chromium.global-setup.ts"],
  }),
});
