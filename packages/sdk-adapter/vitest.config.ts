import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "sdk-adapter",
    include: ["src/**/*.test.ts"],
  },
});
