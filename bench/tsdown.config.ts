import { defineConfig } from "tsdown";

// Node 20 has no TypeScript stripping: the bench and the soak are bundled to plain ESM first
// (dependencies stay external, workspace packages are used as built). Private: no declarations,
// no publint.
export default defineConfig({
  entry: ["src/bench.ts", "src/soak.ts", "src/chain-fake-server.ts", "src/kill-child.ts"],
  format: "esm",
  platform: "node",
  target: "node20.19",
  dts: false,
  clean: true,
  sourcemap: true,
  logLevel: "warn",
});
