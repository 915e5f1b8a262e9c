import { bench, describe } from "vitest";
import { isBoundaryCommand } from "./boundary-command.ts";

// isBoundaryCommand runs before every Bash call: these print how long that costs.
const typical = "pnpm test --filter @climpt/tools 2>&1 | tail -40";
const busy = `set -e; for f in $(git ls-files '*.ts'); do echo "$f"; done && sh -c "grep -rn 'gh api' src | head" ; python3 -c "print('ok')"`;
const long = Array.from({ length: 200 }, (_, i) => `echo line ${i} && git status --porcelain`).join(
  "\n",
);

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
});
