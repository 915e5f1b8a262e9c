/**
 * The `git` that commands inside the sandbox find first on PATH. A `sh` script: it finds git's
 * subcommand after git's own options (`-C <dir>`, `-c <key=value>`, `--git-dir <dir>`, …) and
 * hands `git push` to the push forwarder; everything else runs the real git at once, unchanged.
 * The forwarder (Node.js, like the gh shim) sends the argument vector, the directory and which
 * repository-changing variables are set to the push broker outside (broker-channel.ts) and prints
 * its answer. Reading the subcommand here is a convenience: a push that gets past it runs the
 * real git inside, which has neither credentials nor network nor a writable local remote, and
 * the broker decides every request on its own reading of the argument vector.
 */

/** git options that take their value as the next argument (git.c). */
const GLOBAL_OPTIONS_WITH_VALUE = [
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
  "--config-env",
  "--list-cmds",
  "--attr-source",
];

/**
 * Environment variables that make git act on another repository or object store than the run's:
 * the broker always pushes the run's repository, so it refuses a push made with any of them
 * rather than push something the command did not mean. (Configuration in the environment,
 * `GIT_CONFIG_PARAMETERS` and `GIT_CONFIG_COUNT`, is not among them: the sandbox runtime sets it
 * for `safe.directory`, and the host's push never reads the sandbox's environment.)
 */
export const REPOSITORY_VARIABLES: string[] = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_COMMON_DIR",
  "GIT_NAMESPACE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
];

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** Source of the `git` dispatcher, given the real git's path and the forwarder's. */
export function gitShimSource(realGit: string, nodePath: string, forwarder: string): string {
  return `#!/bin/sh
# climpt's git shim: \`git push\` goes to the push broker outside the sandbox; the rest to git.
sub=
skip=
for arg do
  if [ -n "$skip" ]; then skip=; continue; fi
  case $arg in
    ${GLOBAL_OPTIONS_WITH_VALUE.join("|")}) skip=1 ;;
    -*) ;;
    *) sub=$arg; break ;;
  esac
done
if [ "$sub" = push ]; then exec ${shellQuote(nodePath)} ${shellQuote(forwarder)} "$@"; fi
exec ${shellQuote(realGit)} "$@"
`;
}

/** Source of the push forwarder (run by the Node.js at `nodePath`, the one running climpt). */
export function gitPushForwarderSource(nodePath: string): string {
  return `#!${nodePath}
"use strict";
// climpt's git push forwarder: hands this push to the broker outside the sandbox.
const fs = require("node:fs");
const net = require("node:net");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const fail = (message) => { process.stderr.write("git push (climpt sandbox): " + message + "\\n"); process.exit(128); };
const dir = process.env.CLIMPT_GIT_BROKER;
if (!dir) fail("no push broker in this environment (CLIMPT_GIT_BROKER is unset).");
const argv = process.argv.slice(2);
const env = ${JSON.stringify(REPOSITORY_VARIABLES)}.filter((name) => process.env[name] !== undefined);
const id = process.pid + "-" + Date.now() + "-" + Math.random().toString(36).slice(2, 10);
const request = path.join(dir, id + ".json");
const reply = path.join(dir, id + ".reply");
try {
  fs.writeFileSync(request, JSON.stringify({ argv, cwd: process.cwd(), env }), { flag: "wx", mode: 0o600 });
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
