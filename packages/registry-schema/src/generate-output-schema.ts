/**
 * Writes a step's output schema from a TypeScript type, so the intent union in code and the
 * enum the model is held to cannot drift: `type Intent = "next" | "repeat"` becomes
 * `{ "type": "string", "enum": ["next", "repeat"] }`. Uses `typescript-json-schema` (which
 * brings its own TypeScript), loaded only when called so the runtime never pays for it.
 */

import { access } from "node:fs/promises";
import * as path from "node:path";
import { fail, type JsonSchema, ok, type Problem, type Result } from "@climpt/model";

export interface GenerateOutputSchemaOptions {
  /**
   * Reject properties the type does not declare (`additionalProperties: false`, default true):
   * structured output should not carry fields nobody reads.
   */
  readonly noExtraProps?: boolean;
}

/**
 * The JSON Schema of `typeName` (an exported interface or type alias) in the TypeScript `file`.
 * Optional properties become non-required; every `$ref` is inlined (`ref: false`), so the result
 * is self-contained like the schemas `loadAgent` resolves.
 */
export async function generateOutputSchema(
  file: string,
  typeName: string,
  options: GenerateOutputSchemaOptions = {},
): Promise<Result<JsonSchema>> {
  const absolute = path.resolve(file);
  const problem = (code: string, message: string, hint: string): Problem => ({
    code,
    severity: "error",
    message,
    file: absolute,
    hint,
  });
  try {
    await access(absolute);
  } catch {
    return fail([
      problem("SR-LOAD-001", `${absolute} does not exist.`, "Pass the path of a .ts file."),
    ]);
  }
  // An optional peer: most users of this package (a router, a gate) never need it, and it
  // brings its own TypeScript.
  let tjs: typeof import("typescript-json-schema");
  try {
    tjs = await import("typescript-json-schema");
  } catch (error) {
    return fail([
      problem(
        "SR-LOAD-012",
        `generateOutputSchema needs the optional package typescript-json-schema, which is not installed (${(error as Error).message.split("\n")[0]}).`,
        "Install it next to @climpt/registry-schema: `pnpm add -D typescript-json-schema`.",
      ),
    ]);
  }
  const program = tjs.getProgramFromFiles([absolute], {
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    lib: ["es2023"],
    types: [],
  });
  const diagnostics = tjs.ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.category === tjs.ts.DiagnosticCategory.Error);
  if (diagnostics.length > 0) {
    const messages = diagnostics.slice(0, 5).map((diagnostic) => {
      const text = tjs.ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
      if (diagnostic.file === undefined || diagnostic.start === undefined) return text;
      const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      return `${path.basename(diagnostic.file.fileName)}:${line + 1}:${character + 1} ${text}`;
    });
    return fail([
      problem(
        "SR-LOAD-011",
        `${path.basename(absolute)} does not type-check, so "${typeName}" cannot be converted: ${messages.join("; ")}.`,
        "Fix the type errors first (the file is compiled on its own, with strict on).",
      ),
    ]);
  }
  const generator = tjs.buildGenerator(
    program,
    {
      required: true,
      noExtraProps: options.noExtraProps ?? true,
      strictNullChecks: true,
      ref: false,
      ignoreErrors: true,
    },
    [absolute],
  );
  const symbols = generator?.getUserSymbols() ?? [];
  if (generator === null || !symbols.includes(typeName)) {
    return fail([
      problem(
        "SR-LOAD-011",
        `Type "${typeName}" is not declared in ${path.basename(absolute)}.`,
        `Use one of: ${symbols.join(", ") || "(no types found)"}.`,
      ),
    ]);
  }
  try {
    const schema = generator.getSchemaForSymbol(typeName);
    return ok(JSON.parse(JSON.stringify(schema)) as JsonSchema);
  } catch (error) {
    return fail([
      problem(
        "SR-LOAD-011",
        `Type "${typeName}" cannot be converted to JSON Schema: ${(error as Error).message}.`,
        "Use JSON-shaped types: objects, arrays, strings, numbers, booleans, literal unions.",
      ),
    ]);
  }
}
