import { parseArgs } from "node:util";
import { serveFakeScript } from "./serve-script.ts";

const USAGE = `Usage: climpt-fake-anthropic <script.json> [--port N] [--host H] [--requests FILE]

Serves a scripted fake Anthropic Messages API and prints its base URL on the first line of
stdout. Point a process at it with ANTHROPIC_BASE_URL=<url>. --requests appends every received
request (method, path, body; never the authorization header) to FILE as JSON lines.
Stops on SIGINT / SIGTERM.`;

async function main(argv: readonly string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      requests: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const scriptPath = positionals[0];
  if (values.help === true || scriptPath === undefined) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(values.help === true ? 0 : 2);
  }
  const served = await serveFakeScript({
    scriptPath,
    ...(values.port === undefined ? {} : { port: Number(values.port) }),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values.requests === undefined ? {} : { requestsLog: values.requests }),
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void served.stop().then(() => process.exit(0));
    });
  }
  process.stdout.write(`${served.fake.url}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `climpt-fake-anthropic: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(2);
});
