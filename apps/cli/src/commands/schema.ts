import * as path from "node:path";
import { agentJsonSchema, generateOutputSchema, registryJsonSchema } from "@climpt/registry-schema";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { typescriptJsonSchemaProblem } from "../optional-packages.ts";
import type { Command } from "./command.ts";
import { parseCommandLine, reportUsageProblems, writeJson } from "./command-line.ts";
import { HELP_FLAG } from "./common-flags.ts";

const TOPICS = ["registry", "agent", "from-ts"] as const;

export const schemaCommand: Command = {
  name: "schema",
  summary: "Print the JSON Schema of steps_registry.json or agent.json, or of a TypeScript type.",
  usage: [
    "climpt schema [registry|agent]",
    "climpt schema from-ts FILE TYPE [--allow-extra-props]",
  ],
  flags: [
    {
      name: "allow-extra-props",
      kind: "boolean",
      key: "allowExtraProps",
      description: "from-ts: let objects carry properties the type does not declare.",
    },
    HELP_FLAG,
  ],
  details: [
    'Without a topic, prints the registry schema. Point an editor at them: `climpt schema agent > agent.schema.json`, then `"$schema": "./agent.schema.json"`.',
    "`from-ts` writes a step's output schema from an exported interface or type alias, so the intent union in code and the enum the model is held to cannot drift: `climpt schema from-ts src/outputs.ts InitialIssueOutput > .agent/x/schemas/initial.json`.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, {
      names: ["topic", "file", "type"],
      required: 0,
    });
    if (!outcome.ok) return outcome.exitCode;
    const { positionals, values } = outcome.parsed;
    const topic = positionals[0] ?? "registry";
    if (!(TOPICS as readonly string[]).includes(topic)) {
      return reportUsageProblems(
        io,
        this,
        [
          {
            code: CLI_CODES.badArgument,
            severity: "error",
            message: `Unknown schema "${topic}".`,
            hint: "Write climpt schema registry, climpt schema agent, or climpt schema from-ts FILE TYPE.",
          },
        ],
        false,
      );
    }
    if (topic !== "from-ts" && positionals.length > 1) {
      return reportUsageProblems(
        io,
        this,
        [
          {
            code: CLI_CODES.badArgument,
            severity: "error",
            message: `climpt schema ${topic} takes no further arguments.`,
            hint: "Only from-ts takes FILE and TYPE.",
          },
        ],
        false,
      );
    }
    if (topic === "registry") {
      writeJson(io, registryJsonSchema());
      return EXIT.ok;
    }
    if (topic === "agent") {
      writeJson(io, agentJsonSchema());
      return EXIT.ok;
    }
    const [, file, typeName] = positionals;
    if (file === undefined || typeName === undefined) {
      return reportUsageProblems(
        io,
        this,
        [
          {
            code: CLI_CODES.badArgument,
            severity: "error",
            message: "climpt schema from-ts needs FILE and TYPE.",
            hint: "Write climpt schema from-ts src/outputs.ts MyStepOutput.",
          },
        ],
        false,
      );
    }
    const missing = await typescriptJsonSchemaProblem(io.cwd, io.env);
    if (missing !== null) return reportUsageProblems(io, this, [missing], false);
    const generated = await generateOutputSchema(path.resolve(io.cwd, file), typeName, {
      noExtraProps: values.get("allowExtraProps") !== true,
    });
    if (!generated.ok) return reportUsageProblems(io, this, generated.issues, false);
    writeJson(io, generated.value);
    return EXIT.ok;
  },
};
