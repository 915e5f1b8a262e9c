import { jsonPath } from "@climpt/model";

export interface DuplicateKey {
  /** The JSON path of the object holding the key twice. */
  readonly path: string;
  readonly key: string;
}

/**
 * The keys an object of `text` names more than once. `JSON.parse` keeps only the last value of a
 * repeated key, so a workflow that maps a label twice would lose one mapping without a word; this
 * scan finds them. `text` must already be valid JSON (the caller parsed it first).
 */
export function findDuplicateKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  let index = 0;

  const skipSpace = (): void => {
    while (index < text.length && /\s/.test(text[index] as string)) index++;
  };
  const readString = (): string => {
    // index is at the opening quote; JSON.parse decodes the escapes of the exact slice.
    const start = index;
    index++;
    while (text[index] !== '"') {
      if (text[index] === "\\") index++;
      index++;
    }
    index++;
    return JSON.parse(text.slice(start, index)) as string;
  };
  const readValue = (path: string): void => {
    skipSpace();
    const char = text[index];
    if (char === "{") {
      index++;
      const seen = new Set<string>();
      skipSpace();
      if (text[index] === "}") {
        index++;
        return;
      }
      for (;;) {
        skipSpace();
        const key = readString();
        if (seen.has(key)) found.push({ path, key });
        seen.add(key);
        skipSpace();
        index++; // the colon
        readValue(jsonPath(path, key));
        skipSpace();
        if (text[index] === ",") {
          index++;
          continue;
        }
        index++; // the closing brace
        return;
      }
    }
    if (char === "[") {
      index++;
      skipSpace();
      if (text[index] === "]") {
        index++;
        return;
      }
      for (let item = 0; ; item++) {
        readValue(jsonPath(path, item));
        skipSpace();
        if (text[index] === ",") {
          index++;
          continue;
        }
        index++;
        return;
      }
    }
    if (char === '"') {
      readString();
      return;
    }
    // A number, true, false or null: up to the next delimiter.
    while (index < text.length && !/[\s,\]}]/.test(text[index] as string)) index++;
  };

  readValue("$");
  return found;
}
