import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { capText } from "./cap-text.ts";

describe("capText", () => {
  it("keeps short text as it is and shortens long text to the cap plus a marker, keeping both ends", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 3000 }),
        fc.integer({ min: 8, max: 1000 }),
        (text, max) => {
          const capped = capText(text, max);
          if (text.length <= max) {
            expect(capped).toBe(text);
            return;
          }
          expect(capped).toContain(`[${text.length - max} characters omitted]`);
          expect(capped.startsWith(text.slice(0, Math.floor(max / 4)))).toBe(true);
          expect(capped.endsWith(text.slice(text.length - (max - Math.floor(max / 4))))).toBe(true);
          expect(capped.length).toBeLessThanOrEqual(max + 50);
        },
      ),
    );
  });
});
