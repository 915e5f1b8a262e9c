#!/usr/bin/env node
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findIncompleteBuild, incompleteBuildMessage } from "./build-check.ts";
import { reportInternalError } from "./internal-error.ts";

/** Resolves once everything written to the stream has been handed to the OS. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write("", () => resolve()));
}

// This file runs from dist/bin.mjs: the package folder is one up. The build check comes before
// anything else of climpt's is imported, so a stopped build is a clear message, not a stack trace.
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const broken = findIncompleteBuild(packageDir);
if (broken !== undefined) {
  process.stderr.write(incompleteBuildMessage(broken));
  await flushed(process.stderr);
  process.exit(1);
}

let code: number;
try {
  const [{ main }, { nodeIo }] = await Promise.all([import("./main.ts"), import("./node-io.ts")]);
  code = await main(process.argv.slice(2), nodeIo());
} catch (error) {
  code = reportInternalError(error, process, { json: process.argv.includes("--json") });
}
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
// Exit explicitly: a keep-alive socket or a stray timer must not hold a finished run open.
process.exit(code);
