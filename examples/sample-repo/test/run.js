// A dependency-free test runner printing TAP with no timings, so two runs print the same text.
import assert from "node:assert/strict";
import { slugify } from "../src/slugify.js";
import { truncate } from "../src/truncate.js";

const cases = [
  ["slugify lowercases words", () => assert.equal(slugify("Hello World"), "hello-world")],
  ["slugify strips accents", () => assert.equal(slugify("Crème brûlée"), "creme-brulee")],
  ["slugify joins words with one dash", () => assert.equal(slugify("a  --  b"), "a-b")],
  ["slugify trims dashes at both ends", () => assert.equal(slugify("  Hello, World!  "), "hello-world")],
  ["truncate keeps short text", () => assert.equal(truncate("short", 10), "short")],
  ["truncate cuts long text", () => assert.equal(truncate("a long sentence", 7), "a long…")],
];

console.log("TAP version 13");
let failed = 0;
cases.forEach(([name, run], index) => {
  try {
    run();
    console.log(`ok ${index + 1} - ${name}`);
  } catch (error) {
    failed += 1;
    console.log(`not ok ${index + 1} - ${name}`);
    console.log("  ---");
    console.log(`  message: ${JSON.stringify(error.message.split("\n")[0])}`);
    console.log(`  expected: ${JSON.stringify(error.expected)}`);
    console.log(`  actual: ${JSON.stringify(error.actual)}`);
    console.log("  ...");
  }
});
console.log(`1..${cases.length}`);
console.log(`# tests ${cases.length}`);
console.log(`# pass ${cases.length - failed}`);
console.log(`# fail ${failed}`);
process.exitCode = failed === 0 ? 0 : 1;
