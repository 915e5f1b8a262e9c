#!/usr/bin/env node
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findIncompleteBuild, incompleteBuildMessage } from "./build-check.ts";

/** Resolves once everything written to the stream has been handed to the OS. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write("", () => resolve()));
}

// This file runs from dist/bin.mjs: the package folder is one up. The build check comes before
// anything of climpt's is imported, so a stopped build is a clear message, not a stack trace.
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const broken = findIncompleteBuild(packageDir);
if (broken !== undefined) {
  process.stderr.write(incompleteBuildMessage(broken));
  await flushed(process.stderr);
  process.exit(1);
}

try {
  const [{ main }, { nodeIo }] = await Promise.all([import("./main.ts"), import("./node-io.ts")]);
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
