import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "gate-interpreter",
    include: ["src/**/*.test.ts"],
  },
});
