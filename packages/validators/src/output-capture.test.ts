import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CappedOutput } from "./output-capture.ts";

describe("CappedOutput", () => {
  it("keeps everything under the cap, however it is chunked", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 50 }), { maxLength: 20 }), (chunks) => {
        const output = new CappedOutput(10_000);
        for (const chunk of chunks) output.push(Buffer.from(chunk));
        expect(output.text()).toBe(chunks.join(""));
        expect(output.truncated).toBe(false);
      }),
    );
  });

  it("past the cap keeps the first and last halves and says how much it dropped", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom("a", "b", "c", "\n"), maxLength: 40 }), {
          maxLength: 30,
        }),
        fc.integer({ min: 2, max: 60 }),
        (chunks, cap) => {
          const whole = chunks.join("");
          const output = new CappedOutput(cap);
          for (const chunk of chunks) output.push(Buffer.from(chunk));
          if (whole.length <= cap) {
            expect(output.text()).toBe(whole);
            return;
          }
          const head = Math.ceil(cap / 2);
          const tail = cap - head;
          const dropped = whole.length - cap;
          expect(output.truncated).toBe(true);
          expect(output.text()).toBe(
            `${whole.slice(0, head)}\n[… ${dropped} bytes of output omitted …]\n${whole.slice(whole.length - tail)}`,
          );
        },
      ),
    );
  });

  it("drains a stream to its end", async () => {
    const output = new CappedOutput(4);
    await output.attach(Readable.from([Buffer.from("hello "), Buffer.from("world")]));
    expect(output.totalBytes).toBe(11);
    expect(output.text()).toBe("he\n[… 7 bytes of output omitted …]\nld");
  });
});
