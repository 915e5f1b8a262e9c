import { describe, expect, it } from "vitest";
import { parseShell } from "./shell-parse.ts";

/** The word texts of every simple command, pipelines flattened. */
function commands(source: string): string[][] {
  return parseShell(source).pipelines.flatMap((pipeline) =>
    pipeline.map((cmd) => cmd.words.map((word) => word.text)),
  );
}

describe("parseShell", () => {
  it("splits on every separator and keeps pipelines together", () => {
    const parsed = parseShell("a 1; b && c || d | e & f\ng (h) `i`");
    expect(parsed.pipelines.map((p) => p.map((c) => c.words.map((w) => w.text).join(" ")))).toEqual(
      [["a 1"], ["b"], ["c"], ["d", "e"], ["f"], ["g"], ["h"], ["`i`"]],
    );
    expect(parsed.nested).toEqual(["i"]);
  });

  it("removes quotes and escapes the way the shell does", () => {
    expect(commands(`g"h" 'is'sue \\c\\lose "a b" 'c d' $'\\x67\\x68' ""`)).toEqual([
      ["gh", "issue", "close", "a b", "c d", "gh", ""],
    ]);
  });

  it("keeps comments and redirection targets out of the words", () => {
    const parsed = parseShell("cmd arg 2>&1 >out.txt <in.txt # trailing words");
    const [cmd] = parsed.pipelines[0] ?? [];
    expect(cmd?.words.map((w) => w.text)).toEqual(["cmd", "arg"]);
    expect(cmd?.redirects.map((r) => `${r.op}${r.target.text}`)).toEqual([
      ">&1",
      ">out.txt",
      "<in.txt",
    ]);
  });

  it("collects command substitutions, including inside double quotes and parameter expansions", () => {
    const parsed = parseShell(`echo "$(one "x")" \`two\` <(three) \${X:-$(four)}`);
    expect(parsed.nested).toEqual([`one "x"`, "two", "three", "X:-$(four)"]);
    expect(parsed.pipelines[0]?.[0]?.words.slice(1).every((w) => w.dynamic)).toBe(true);
  });

  it("expands variables the string assigns and splits unquoted values", () => {
    expect(commands(`A="issue close"; gh $A "$A" \${A}x $UNKNOWN`)).toEqual([
      ["A=issue close"],
      ["gh", "issue", "close", "issue close", "issue", "closex", "$UNKNOWN"],
    ]);
  });

  it("reads here-documents as the command's stdin, not as commands", () => {
    const parsed = parseShell("cat <<'EOF' > out\ngh issue close 1\nEOF\necho after");
    expect(commands("cat <<'EOF' > out\ngh issue close 1\nEOF\necho after")).toEqual([
      ["cat"],
      ["echo", "after"],
    ]);
    expect(parsed.pipelines[0]?.[0]?.stdinTexts).toEqual(["gh issue close 1"]);
    expect(parsed.nested).toEqual([]);
  });

  it("expands substitutions in a here-document with an unquoted delimiter", () => {
    expect(parseShell("cat <<EOF\nvalue $(inner)\nEOF").nested).toEqual(["inner"]);
  });

  it("expands braces and sequences, dropping empty alternatives", () => {
    expect(commands("{a,b}{1,2} x{,y} {a..c} '{q,r}'")).toEqual([
      ["a1", "a2", "b1", "b2", "x", "xy", "a", "b", "c", "{q,r}"],
    ]);
  });

  it("marks unquoted glob characters", () => {
    const words = parseShell("ls *.ts '*.md' a?c").pipelines[0]?.[0]?.words ?? [];
    expect(words.map((w) => w.glob)).toEqual([false, true, false, true]);
  });

  it("knows where an unquoted expansion could split a word", () => {
    const words = parseShell(`x "HEAD:$B" HEAD:$B`).pipelines[0]?.[0]?.words ?? [];
    expect(words.map((w) => w.literalStart)).toEqual(["x", "HEAD:", ""]);
  });

  it("survives unterminated quotes and substitutions", () => {
    expect(() => parseShell(`echo "abc $(def 'g`)).not.toThrow();
    expect(parseShell(`echo $(gh issue close 1`).nested).toEqual(["gh issue close 1"]);
  });
});
