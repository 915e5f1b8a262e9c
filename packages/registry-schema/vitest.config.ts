import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "registry-schema",
    include: ["src/**/*.test.ts"],
  },
});
