// Writes agent.schema.json and steps_registry.schema.json from the built package's valibot
// schemas (`pnpm --filter @climpt/registry-schema generate` builds first). The file-snapshot
// test in src/json-schema-files.test.ts fails when the committed files drift from this output.
import { writeFile } from "node:fs/promises";
import { agentJsonSchema, registryJsonSchema } from "../dist/index.mjs";

const files = {
  "agent.schema.json": agentJsonSchema(),
  "steps_registry.schema.json": registryJsonSchema(),
};
for (const [name, schema] of Object.entries(files)) {
  await writeFile(new URL(`../${name}`, import.meta.url), `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote ${name}`);
}
