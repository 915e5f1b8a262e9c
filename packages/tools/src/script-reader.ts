import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { WorkingRoot } from "./confine-path.ts";
import { looksBinary } from "./text-cap.ts";

const MAX_INSPECTED_SCRIPT_BYTES = 512 * 1024;

/**
 * Lets the boundary check read scripts the command runs. Reading is not confined to the working
 * directory: the text is inspected, never shown to the model, and `bash /tmp/x.sh` must be
 * inspected as well as `bash ./x.sh`.
 */
export function scriptReader(root: WorkingRoot): (file: string) => string | undefined {
  return (file) => {
    try {
      const absolute = path.resolve(root.real, file);
      const stats = statSync(absolute);
      if (!stats.isFile() || stats.size > MAX_INSPECTED_SCRIPT_BYTES) return undefined;
      const buffer = readFileSync(absolute);
      return looksBinary(buffer) ? undefined : buffer.toString("utf8");
    } catch {
      return undefined;
    }
  };
}
