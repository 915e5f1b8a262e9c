#!/usr/bin/env node
import { main } from "./main.ts";
import { nodeIo } from "./node-io.ts";

/** Resolves once everything written to the stream has been handed to the OS. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write("", () => resolve()));
}

try {
  const code = await main(process.argv.slice(2), nodeIo());
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  // Exit explicitly: a keep-alive socket or a stray timer must not hold a finished run open.
  process.exit(code);
} catch (error) {
  process.stderr.write(
    `climpt: internal error (please report it with the command you ran):\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  await flushed(process.stderr);
  process.exit(1);
}
