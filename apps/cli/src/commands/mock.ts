import * as path from "node:path";
import type { MockServed } from "@climpt/mock";
import { problem } from "@climpt/model";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { displayPath } from "../report-problems.ts";
import type { Command } from "./command.ts";
import {
  numberValue,
  parseCommandLine,
  reportUsageProblems,
  stringValue,
  writeJson,
} from "./command-line.ts";
import { HELP_FLAG, JSON_FLAG } from "./common-flags.ts";

/** One line on stderr per request: which rule answered it, or why none did. */
function servedLine(served: MockServed): string {
  const step = served.facts.step ?? "(no step header)";
  const what =
    served.rule === undefined
      ? (served.problem ?? "no rule answers it")
      : `${served.rule} → ${served.answered}`;
  return `#${served.index} step ${step}, turn ${served.facts.turn}: ${what}\n`;
}

export const mockCommand: Command = {
  name: "mock",
  summary: "Serve a mock script as the Messages API on 127.0.0.1, to run agents offline.",
  usage: ["climpt mock --script FILE [--port N]"],
  flags: [
    {
      name: "script",
      kind: "string",
      key: "script",
      valueName: "FILE",
      description: "The mock script (`climpt init` writes one: .agent/<name>/mock.json).",
    },
    {
      name: "port",
      kind: "integer",
      key: "port",
      valueName: "N",
      min: 0,
      description: "Port on 127.0.0.1 (default: 0, a free port; the URL is printed).",
    },
    JSON_FLAG,
    HELP_FLAG,
  ],
  details: [
    "Prints `ANTHROPIC_BASE_URL=<url>` on stdout (with --json: {ok, url}) and serves until Ctrl-C; point any client of the Messages API at it, e.g. `ANTHROPIC_BASE_URL=<url> ANTHROPIC_API_KEY=mock climpt run <agent> …` (the mock reads no key). `climpt run <agent> --mock FILE` does the same in-process for one run.",
    "A rule answers by the step that asks (climpt sends it as the x-climpt-step header) or by the prompt's text; each turn answers with output, text, toolCalls or an API error, with optional delayMs and failFirst. A request no rule answers gets a 400 error with AC-MOCK-003, naming its step and the closest rule. The format: the README of @climpt/mock.",
    "Each request is reported on stderr with the rule that answered it.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: [] });
    if (!outcome.ok) return outcome.exitCode;
    const { values } = outcome.parsed;
    const json = values.get("json") === true;
    const scriptFlag = stringValue(values, "script");
    if (scriptFlag === undefined) {
      return reportUsageProblems(
        io,
        this,
        [
          problem(CLI_CODES.badArgument, "climpt mock needs --script FILE.", {
            hint: "Usage: climpt mock --script .agent/<name>/mock.json (climpt init writes one).",
          }),
        ],
        json,
      );
    }
    const file = path.resolve(io.cwd, scriptFlag);
    const { loadMockScript, MOCK_CODES, startMock } = await import("@climpt/mock");
    const script = await loadMockScript(file);
    if (!script.ok) return reportUsageProblems(io, this, script.issues, json);
    const port = numberValue(values, "port") ?? 0;
    let mock: Awaited<ReturnType<typeof startMock>>;
    try {
      mock = await startMock({
        script: script.value,
        port,
        onServed: (served) => io.stderr.write(servedLine(served)),
        // It serves until stopped: print each request, keep none.
        keepHistory: false,
      });
    } catch (error) {
      return reportUsageProblems(
        io,
        this,
        [
          problem(
            MOCK_CODES.cannotListen,
            `Cannot serve on 127.0.0.1:${port}: ${(error as Error).message}.`,
            { file, hint: "Choose another --port, or --port 0 for a free one." },
          ),
        ],
        json,
      );
    }
    if (json) writeJson(io, { ok: true, url: mock.url });
    else io.stdout.write(`ANTHROPIC_BASE_URL=${mock.url}\n`);
    io.stderr.write(
      `Serving ${displayPath(file, io.cwd)} (${script.value.rules.length} rules) at ${mock.url}. Ctrl-C stops.\n`,
    );
    await new Promise<void>((resolve) => {
      const unhook = io.onStopSignal?.(() => {
        unhook?.();
        resolve();
      });
    });
    await mock.close();
    return EXIT.ok;
  },
};
