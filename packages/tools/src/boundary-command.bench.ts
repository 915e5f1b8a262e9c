import { bench, describe } from "vitest";
import { isBoundaryCommand } from "./boundary-command.ts";

// isBoundaryCommand runs before every Bash call: these print how long that costs.
const typical = "pnpm test --filter @climpt/tools 2>&1 | tail -40";
const busy = `set -e; for f in $(git ls-files '*.ts'); do echo "$f"; done && sh -c "grep -rn 'gh api' src | head" ; python3 -c "print('ok')"`;
const long = Array.from({ length: 200 }, (_, i) => `echo line ${i} && git status --porcelain`).join(
  "\n",
);

// 39 KiB commands of the shapes that made the filter super-linear before it was bounded (the
// first one held the event loop for 15.9 s, a script-path one for minutes).
const size = 39 * 1024;
const fill = (unit: string): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const wordy = fill("aa ");
const scriptPaths = `bash ${fill("a/b ")}`;
const pushes = fill("git push a ");

describe("isBoundaryCommand", () => {
  bench("typical command", () => {
    isBoundaryCommand(typical);
  });
  bench("nested shells and substitutions", () => {
    isBoundaryCommand(busy);
  });
  bench("200-line script", () => {
    isBoundaryCommand(long);
  });
  bench("39 KiB: 13 000 words in one command", () => {
    isBoundaryCommand(wordy);
  });
  bench("39 KiB: bash followed by 10 000 script paths", () => {
    isBoundaryCommand(scriptPaths);
  });
  bench("39 KiB: 3 600 git push", () => {
    isBoundaryCommand(pushes);
  });
});
