import { defineConfig } from "vitest/config";

// One vitest project per workspace package, so `pnpm vitest` from the root runs everything
// and an editor sees every package's tests. CI runs tests per package through turbo instead,
// so that each package is tested against its dependencies' built output.
export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*"],
  },
});
