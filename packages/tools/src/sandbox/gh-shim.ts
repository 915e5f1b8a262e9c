/**
 * The `gh` that commands inside the sandbox find first on PATH. It holds no credentials and
 * reaches no network: it writes its final argument vector (and stdin, when an argument asks gh to
 * read it) to the broker's directory, signals the broker through a FIFO, and prints what the
 * broker answers. The sandbox blocks creating unix sockets, so the channel is FIFOs and files.
 *
 * Protocol, in the broker directory `$CLIMPT_GH_BROKER`:
 * 1. the shim writes `<id>.json` = `{ argv, cwd, stdin, stdinRead }` (stdin base64) and makes the FIFO
 *    `<id>.reply`, which it opens read-write (so opening never blocks and EOF never comes early);
 * 2. it writes `<id>\n` to the FIFO `ring` (one short write: atomic among concurrent shims);
 * 3. the broker answers one JSON line `{ stdout, stderr, exitCode }` (base64) on `<id>.reply`.
 */

/** The largest stdin the shim forwards (a comment body). */
export const MAX_SHIM_STDIN_BYTES: number = 1024 * 1024;

/** Source of the shim, run by the Node.js at `nodePath` (the one running climpt). */
export function ghShimSource(nodePath: string): string {
  return `#!${nodePath}
"use strict";
// climpt's gh shim: forwards this gh call to the broker outside the sandbox.
const fs = require("node:fs");
const net = require("node:net");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const fail = (message) => { process.stderr.write("gh (climpt sandbox): " + message + "\\n"); process.exit(4); };
const dir = process.env.CLIMPT_GH_BROKER;
if (!dir) fail("no broker in this environment (CLIMPT_GH_BROKER is unset).");
const argv = process.argv.slice(2);
let stdin = "";
// Only when an argument can ask gh for stdin (\`-\`, \`--body-file=-\`, \`-F-\`): gh reads it only
// then, and a gh in a \`while read\` loop must not eat the loop's input.
const stdinRead = argv.some((arg) => arg === "-" || arg.endsWith("=-") || /^-[A-Za-z]+-$/.test(arg));
if (stdinRead) {
  const buffer = fs.readFileSync(0);
  if (buffer.length > ${MAX_SHIM_STDIN_BYTES}) fail("stdin is larger than ${MAX_SHIM_STDIN_BYTES} bytes.");
  stdin = buffer.toString("base64");
}
const id = process.pid + "-" + Date.now() + "-" + Math.random().toString(36).slice(2, 10);
const request = path.join(dir, id + ".json");
const reply = path.join(dir, id + ".reply");
try {
  fs.writeFileSync(request, JSON.stringify({ argv, cwd: process.cwd(), stdin, stdinRead }), { flag: "wx", mode: 0o600 });
} catch (error) { fail("cannot write the request: " + error.message); }
if (spawnSync("mkfifo", ["-m", "600", reply]).status !== 0) fail("cannot create the reply FIFO.");
const replyFd = fs.openSync(reply, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
let ring;
try {
  ring = fs.openSync(path.join(dir, "ring"), fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
} catch (error) { fail("the broker is not listening (" + error.code + ")."); }
fs.writeSync(ring, id + "\\n");
fs.closeSync(ring);
const socket = new net.Socket({ fd: replyFd, readable: true, writable: false });
const chunks = [];
socket.on("data", (chunk) => {
  chunks.push(chunk);
  const text = Buffer.concat(chunks).toString("utf8");
  const end = text.indexOf("\\n");
  if (end < 0) return;
  socket.destroy();
  try { fs.unlinkSync(reply); } catch {}
  let answer;
  try { answer = JSON.parse(text.slice(0, end)); } catch { fail("unreadable answer from the broker."); }
  process.stdout.write(Buffer.from(answer.stdout, "base64"), () =>
    process.stderr.write(Buffer.from(answer.stderr, "base64"), () => process.exit(answer.exitCode)));
});
`;
}
