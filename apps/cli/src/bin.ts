#!/usr/bin/env node
import { reportInternalError } from "./internal-error.ts";
import { main } from "./main.ts";
import { nodeIo } from "./node-io.ts";

/** Resolves once everything written to the stream has been handed to the OS. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write("", () => resolve()));
}

let code: number;
try {
  code = await main(process.argv.slice(2), nodeIo());
} catch (error) {
  code = reportInternalError(error, process, { json: process.argv.includes("--json") });
}
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
// Exit explicitly: a keep-alive socket or a stray timer must not hold a finished run open.
process.exit(code);
