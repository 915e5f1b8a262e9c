/**
 * Glob patterns as regular expressions, matched against `/`-separated relative paths.
 * Node 20 has no `fs.glob` (it arrived in Node 22), so the Glob and Grep tools match themselves.
 *
 * - `*` any run of characters except `/`; `?` one character except `/`
 * - `**` as a whole segment: any number of directories (`src/**\/*.ts`, `**\/test`, `docs/**`)
 * - `[abc]`, `[a-z]`, `[!abc]` / `[^abc]` character classes
 * - `{a,b,c}` alternatives, nestable
 * - `\x` matches `x` literally
 *
 * Dot files are matched like any other name.
 */
export function globToRegExp(pattern: string, flags = ""): RegExp {
  return new RegExp(`^${convert(pattern)}$`, flags);
}

function convert(pattern: string): string {
  let out = "";
  let i = 0;
  while (i < pattern.length) {
    const c = pattern.charAt(i);
    if (c === "\\" && i + 1 < pattern.length) {
      out += escapeRegExpChar(pattern.charAt(i + 1));
      i += 2;
    } else if (c === "*") {
      let j = i;
      while (pattern.charAt(j) === "*") j++;
      const atSegmentStart = i === 0 || pattern.charAt(i - 1) === "/";
      const atSegmentEnd = j === pattern.length || pattern.charAt(j) === "/";
      if (j - i >= 2 && atSegmentStart && atSegmentEnd) {
        if (j === pattern.length) {
          out += ".*";
          i = j;
        } else {
          // `**/`: zero or more whole directories.
          out += "(?:[^/]*/)*";
          i = j + 1;
        }
      } else {
        out += "[^/]*";
        i = j;
      }
    } else if (c === "?") {
      out += "[^/]";
      i++;
    } else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) {
        out += "\\[";
        i++;
      } else {
        let body = pattern.slice(i + 1, end);
        const negate = body.startsWith("!") || body.startsWith("^");
        if (negate) body = body.slice(1);
        out += `[${negate ? "^" : ""}${body.replace(/\\/g, "\\\\").replace(/\]/g, "\\]")}]`;
        i = end + 1;
      }
    } else if (c === "{") {
      const group = alternatives(pattern, i);
      if (group === undefined) {
        out += "\\{";
        i++;
      } else {
        out += `(?:${group.parts.map(convert).join("|")})`;
        i = group.end + 1;
      }
    } else {
      out += escapeRegExpChar(c);
      i++;
    }
  }
  return out;
}

/** The comma-separated alternatives of the `{…}` at `open`, or undefined when it is literal. */
function alternatives(pattern: string, open: number): { parts: string[]; end: number } | undefined {
  let depth = 0;
  const parts: string[] = [];
  let from = open + 1;
  for (let j = open; j < pattern.length; j++) {
    const c = pattern.charAt(j);
    if (c === "\\") {
      j++;
    } else if (c === "{") {
      depth++;
    } else if (c === "}") {
      depth--;
      if (depth === 0) {
        parts.push(pattern.slice(from, j));
        return parts.length > 1 ? { parts, end: j } : undefined;
      }
    } else if (c === "," && depth === 1) {
      parts.push(pattern.slice(from, j));
      from = j + 1;
    }
  }
  return undefined;
}

function escapeRegExpChar(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

/** The directory part of a pattern before its first wildcard: where a walk can start. */
export function literalPrefix(pattern: string): string {
  const segments = pattern.split("/");
  const fixed: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (/[*?[{\\]/.test(segment)) break;
    fixed.push(segment);
  }
  return fixed.join("/");
}
