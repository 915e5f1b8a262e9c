import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { capHeadTail, trimIncompleteEnd } from "./text-cap.ts";

function replacementCharacters(text: string): number {
  return text.split("\uFFFD").length - 1;
}

describe("capHeadTail", () => {
  it("leaves short text alone", () => {
    expect(capHeadTail("short", 100)).toEqual({ text: "short", omittedBytes: 0 });
  });

  it("keeps whole characters and accounts for every byte", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 300 }),
        fc.integer({ min: 8, max: 200 }),
        (text, cap) => {
          const { text: capped, omittedBytes } = capHeadTail(text, cap);
          // A character cut in two would show as U+FFFD; the input may hold that character
          // itself (fast-check draws it now and then), so count instead of looking for one.
          expect(replacementCharacters(capped)).toBeLessThanOrEqual(replacementCharacters(text));
          if (omittedBytes > 0) {
            const [head = "", tail = ""] = capped.split(/\n\[… \d+ bytes of output omitted …\]\n/);
            expect(Buffer.byteLength(head) + Buffer.byteLength(tail) + omittedBytes).toBe(
              Buffer.byteLength(text),
            );
            expect(text.startsWith(head) && text.endsWith(tail)).toBe(true);
          }
        },
      ),
    );
  });
});

describe("trimIncompleteEnd", () => {
  it("drops a character cut at the end of a chunk", () => {
    const euro = Buffer.from("a€", "utf8");
    expect(trimIncompleteEnd(euro.subarray(0, 3)).toString("utf8")).toBe("a");
    expect(trimIncompleteEnd(euro).toString("utf8")).toBe("a€");
  });
});
