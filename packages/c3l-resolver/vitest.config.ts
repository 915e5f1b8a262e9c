import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "c3l-resolver",
    include: ["src/**/*.test.ts"],
  },
});
