import { defineProject } from "vitest/config";
import { packageTestOptions } from "../../vitest.shared.ts";

export default defineProject({
  test: packageTestOptions("tools", {
    globalSetup: ["./vitest.global-setup.ts"],
    // Each file in a fresh worker, unlike the other packages (vitest.shared.ts): the sandbox keeps
    // the paths of bwrap and socat and its probe's answer per process, as a real run needs, and
    // the probe tests put a bubblewrap that cannot start first on PATH. Shared across files, the
    // git sandbox tests after them ran a deleted fake bwrap.
    isolate: true,
  }),
});
