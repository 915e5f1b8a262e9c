/** Scanning helpers of the shell reader: bracket matching, substitutions in expanded text, `$'…'`. */

/**
 * The index of the bracket closing the one at `open`, skipping quoted text; the end of the string
 * when unterminated (an unterminated substitution still gets inspected).
 */
export function findClosing(s: string, open: number, opener: string, closer: string): number {
  let depth = 1;
  let j = open + 1;
  while (j < s.length) {
    const ch = s.charAt(j);
    if (ch === "\\") {
      j += 2;
      continue;
    }
    if (ch === "'" || ch === "`") {
      const end = s.indexOf(ch, j + 1);
      j = end < 0 ? s.length : end + 1;
      continue;
    }
    if (ch === '"') {
      j++;
      while (j < s.length && s.charAt(j) !== '"') j += s.charAt(j) === "\\" ? 2 : 1;
      j++;
      continue;
    }
    if (ch === opener) depth++;
    else if (ch === closer) {
      depth--;
      if (depth === 0) return j;
    }
    j++;
  }
  return s.length;
}

/** Command substitutions and `${…}` bodies inside text the shell expands (an unquoted here-doc). */
export function substitutionsIn(text: string): string[] {
  const found: string[] = [];
  let j = 0;
  while (j < text.length) {
    const ch = text.charAt(j);
    if (ch === "\\") {
      j += 2;
    } else if (ch === "$" && (text.charAt(j + 1) === "(" || text.charAt(j + 1) === "{")) {
      const opener = text.charAt(j + 1);
      const end = findClosing(text, j + 1, opener, opener === "(" ? ")" : "}");
      found.push(text.slice(j + 2, end));
      j = end + 1;
    } else if (ch === "`") {
      let end = j + 1;
      while (end < text.length && text.charAt(end) !== "`")
        end += text.charAt(end) === "\\" ? 2 : 1;
      found.push(text.slice(j + 1, end));
      j = end + 1;
    } else {
      j++;
    }
  }
  return found;
}

/** `$'…'`: ANSI-C quoting, where `\x67` is `g`. Returns the decoded text and the index after. */
export function readAnsiC(s: string, from: number): { text: string; end: number } {
  let out = "";
  let j = from;
  while (j < s.length && s.charAt(j) !== "'") {
    const ch = s.charAt(j);
    if (ch !== "\\") {
      out += ch;
      j++;
      continue;
    }
    const e = s.charAt(j + 1);
    const simple: Record<string, string> = {
      n: "\n",
      t: "\t",
      r: "\r",
      a: "\x07",
      b: "\b",
      e: "\x1b",
      E: "\x1b",
      f: "\f",
      v: "\v",
      "\\": "\\",
      "'": "'",
      '"': '"',
      "?": "?",
    };
    const mapped = simple[e];
    if (mapped !== undefined) {
      out += mapped;
      j += 2;
      continue;
    }
    const hex = /^x([0-9A-Fa-f]{1,2})/.exec(s.slice(j + 1));
    const uni = /^[uU]([0-9A-Fa-f]{1,8})/.exec(s.slice(j + 1));
    const oct = /^([0-7]{1,3})/.exec(s.slice(j + 1));
    if (hex?.[1] !== undefined) {
      out += String.fromCharCode(Number.parseInt(hex[1], 16));
      j += 1 + hex[0].length;
    } else if (uni?.[1] !== undefined) {
      const code = Number.parseInt(uni[1], 16);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : "";
      j += 1 + uni[0].length;
    } else if (oct?.[1] !== undefined) {
      out += String.fromCharCode(Number.parseInt(oct[1], 8) & 0xff);
      j += 1 + oct[0].length;
    } else {
      out += `\\${e}`;
      j += 2;
    }
  }
  return { text: out, end: j + 1 };
}
