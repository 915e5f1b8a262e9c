// Shared by the tests of this package (not exported from the package).
import type { JsonSchema, ToolCall, ToolExecutor, ToolResult } from "@climpt/model";

/** Recognisable, so a test can grep every artifact for it. */
export const FAKE_KEY = "sk-ant-api03-RECOGNISABLE-FAKE-KEY-0123456789";

export const INTENT_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    intent: { type: "string", enum: ["next", "repeat"] },
    summary: { type: "string" },
  },
  required: ["intent", "summary"],
  additionalProperties: false,
};

/** A tool executor over plain functions, recording what it ran. */
export function fakeTools(
  handlers: Record<string, (input: ToolCall["input"]) => ToolResult | Promise<ToolResult>>,
): ToolExecutor & { readonly calls: ToolCall[] } {
  const calls: ToolCall[] = [];
  return {
    calls,
    definitions: Object.keys(handlers).map((name) => ({
      name,
      description: `The ${name} tool.`,
      inputSchema: { type: "object", properties: {}, additionalProperties: true },
    })),
    async execute(call) {
      calls.push(call);
      const handler = handlers[call.name];
      if (handler === undefined) throw new Error(`no handler for ${call.name}`);
      return handler(call.input);
    },
  };
}

/** A logger that keeps every line the SDK writes, at every level. */
export function captureLogger(): {
  readonly lines: string[];
  readonly logger: {
    error(message: string, ...rest: unknown[]): void;
    warn(message: string, ...rest: unknown[]): void;
    info(message: string, ...rest: unknown[]): void;
    debug(message: string, ...rest: unknown[]): void;
  };
} {
  const lines: string[] = [];
  const keep =
    (level: string) =>
    (message: string, ...rest: unknown[]): void => {
      lines.push(
        `${level} ${message} ${rest
          .map((part) => {
            try {
              return typeof part === "string"
                ? part
                : JSON.stringify(part, (_k, v) =>
                    v instanceof Headers ? Object.fromEntries(v) : v,
                  );
            } catch {
              return String(part);
            }
          })
          .join(" ")}`,
      );
    };
  return {
    lines,
    logger: { error: keep("error"), warn: keep("warn"), info: keep("info"), debug: keep("debug") },
  };
}
