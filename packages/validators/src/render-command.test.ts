// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${param} is the validator placeholder syntax under test
import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commandPlaceholders, quoteShellWord, renderCommand } from "./render-command.ts";

/** What `sh` really receives as arguments when it runs `printf '%s\0' <rendered words>`. */
function shellArguments(rendered: string): string[] {
  const output = execFileSync("sh", ["-c", `printf '%s\\0' ${rendered}`], { encoding: "utf8" });
  return output.split("\0").slice(0, -1);
}

describe("renderCommand", () => {
  it("quotes a param as one shell word", () => {
    const result = renderCommand("git log -- ${file}", { file: "my file.txt" });
    expect(result).toEqual({ ok: true, command: "git log -- 'my file.txt'" });
  });

  it("keeps an injection attempt a literal argument", () => {
    const attempts = ["; rm -rf /", "$(touch pwned)", "`id`", "a' ; echo 'b", "x\ny", "*", "$HOME"];
    for (const attempt of attempts) {
      const result = renderCommand("${value}", { value: attempt });
      expect(result.ok).toBe(true);
      expect(shellArguments(result.command)).toEqual([attempt]);
    }
  });

  it("renders an array as one quoted word per item and an empty array as no word", () => {
    const result = renderCommand("echo ${files}", { files: ["a b", "c'd", 3, true] });
    expect(result.ok && shellArguments(result.command.slice("echo ".length))).toEqual([
      "a b",
      "c'd",
      "3",
      "true",
    ]);
    expect(renderCommand("ls ${files}", { files: [] })).toEqual({ ok: true, command: "ls " });
  });

  it("reports a missing param with a code instead of substituting an empty string", () => {
    const result = renderCommand("rm -rf ${dir}/build", {}, "clean");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("SR-VALID-101");
    expect(result.error.message).toContain('validator "clean"');
    expect(result.command).toBe("rm -rf ${dir}/build");
  });

  it("reports every placeholder at fault in one error, with the first one's code", () => {
    const result = renderCommand("cp ${from} ${to} ${mode}", { mode: null });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("SR-VALID-101");
    expect(result.error.message).toMatch(/"from".*"to".*"mode"/);
    expect(result.error.hint).toContain('"from"');
  });

  it("reports null, objects and nested arrays as values that cannot become words", () => {
    for (const value of [null, { a: 1 }, [["nested"]]]) {
      const result = renderCommand("echo ${v}", { v: value });
      expect(!result.ok && result.error.code).toBe("SR-VALID-102");
    }
  });

  it("leaves $name and the escaped $${name} to the shell", () => {
    expect(renderCommand("echo $HOME $${USER} ${x}", { x: "1" })).toEqual({
      ok: true,
      command: "echo $HOME ${USER} '1'",
    });
  });

  it("round-trips any string through sh", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme" }).filter((s) => !s.includes("\0")),
        (value) => {
          expect(shellArguments(quoteShellWord(value))).toEqual([value]);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("commandPlaceholders", () => {
  it("lists placeholder names once, without escaped ones", () => {
    expect(commandPlaceholders("${a} ${b} ${a} $${c}")).toEqual(["a", "b"]);
  });
});
