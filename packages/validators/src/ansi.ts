const ESC = String.fromCharCode(0x1b);
const BEL = String.fromCharCode(0x07);
const CSI8 = String.fromCharCode(0x9b);

// CSI sequences (colours, cursor moves) and OSC sequences (terminal hyperlinks, as biome prints
// them) terminated by BEL or ST. Tools colour their output when they think a person is watching,
// and FORCE_COLOR in a user's environment makes that happen under a validator too. Built from a
// string because the escape characters are the point, and a literal would hide them.
const ANSI_PATTERN = new RegExp(
  [
    `${ESC}\\[[0-?]*[ -/]*[@-~]`,
    `${ESC}\\][^${BEL}${ESC}]*(?:${BEL}|${ESC}\\\\)`,
    `${CSI8}[0-?]*[ -/]*[@-~]`,
  ].join("|"),
  "g",
);

/** The text without terminal escape sequences. */
export function stripAnsi(text: string): string {
  return text.includes(ESC) || text.includes(CSI8) ? text.replace(ANSI_PATTERN, "") : text;
}
