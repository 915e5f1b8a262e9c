/** Brace expansion of one word stops here, so `{a,b}{c,d}…` cannot blow up. */
const MAX_BRACE_WORDS = 256;

/** One character of a word, and whether the shell sees it quoted. */
export interface Char {
  readonly c: string;
  /** Quoted or escaped: no glob, no brace expansion. */
  readonly quoted: boolean;
}

/**
 * Bash brace expansion of one word: `{gh,x}` → `gh`, `x`; `g{h..h}` → `gh`. Quoted braces stay
 * literal. Capped at MAX_BRACE_WORDS results.
 */
export function expandBraces(chars: readonly Char[]): Char[][] {
  const results: Char[][] = [];
  expandInto(chars, results);
  return results.length > 0 ? results : [[...chars]];
}

function expandInto(chars: readonly Char[], out: Char[][]): void {
  if (out.length >= MAX_BRACE_WORDS) return;
  for (let open = 0; open < chars.length; open++) {
    const ch = chars[open];
    if (ch === undefined || ch.quoted || ch.c !== "{") continue;
    const group = braceGroup(chars, open);
    if (group === undefined) continue;
    const prefix = chars.slice(0, open);
    const suffix = chars.slice(group.close + 1);
    for (const alternative of group.alternatives) {
      expandInto([...prefix, ...alternative, ...suffix], out);
      if (out.length >= MAX_BRACE_WORDS) return;
    }
    return;
  }
  out.push([...chars]);
}

/** The alternatives of the brace group opening at `open`, or undefined when it is literal. */
function braceGroup(
  chars: readonly Char[],
  open: number,
): { close: number; alternatives: Char[][] } | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let j = open; j < chars.length; j++) {
    const ch = chars[j];
    if (ch === undefined || ch.quoted) continue;
    if (ch.c === "{") depth++;
    else if (ch.c === "}") {
      depth--;
      if (depth === 0) {
        const inner = chars.slice(open + 1, j);
        if (commas.length > 0) {
          const alternatives: Char[][] = [];
          let from = open + 1;
          for (const comma of [...commas, j]) {
            alternatives.push(chars.slice(from, comma));
            from = comma + 1;
          }
          return { close: j, alternatives };
        }
        const range = sequence(inner.map((c) => c.c).join(""));
        return range === undefined
          ? undefined
          : {
              close: j,
              alternatives: range.map((text) => [...text].map((c) => ({ c, quoted: true }))),
            };
      }
    } else if (ch.c === "," && depth === 1) commas.push(j);
  }
  return undefined;
}

/** `a..e` or `1..5` (a step is not supported: such a group stays literal). */
function sequence(body: string): string[] | undefined {
  const chars = /^(.)\.\.(.)$/.exec(body);
  const ints = /^(-?\d+)\.\.(-?\d+)$/.exec(body);
  const values: string[] = [];
  if (ints?.[1] !== undefined && ints[2] !== undefined) {
    const a = Number(ints[1]);
    const b = Number(ints[2]);
    const step = a <= b ? 1 : -1;
    for (let n = a; values.length < MAX_BRACE_WORDS; n += step) {
      values.push(String(n));
      if (n === b) break;
    }
    return values;
  }
  if (chars?.[1] !== undefined && chars[2] !== undefined) {
    const a = chars[1].charCodeAt(0);
    const b = chars[2].charCodeAt(0);
    const step = a <= b ? 1 : -1;
    for (let n = a; values.length < MAX_BRACE_WORDS; n += step) {
      values.push(String.fromCharCode(n));
      if (n === b) break;
    }
    return values;
  }
  return undefined;
}
