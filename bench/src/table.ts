/** The one table `pnpm bench` prints: a Markdown table, so it can go into the README as is. */
export interface TableRow {
  /** Row number of the issue (1–5). */
  readonly group: string;
  readonly measure: string;
  readonly climpt: string;
  readonly langgraph: string;
  readonly ratio: string;
  readonly note: string;
}

const HEADER: TableRow = {
  group: "#",
  measure: "measure",
  climpt: "climpt",
  langgraph: "LangGraph.js",
  ratio: "ratio / growth",
  note: "note",
};

const COLUMNS = ["group", "measure", "climpt", "langgraph", "ratio", "note"] as const;

function escapePipes(cell: string): string {
  return cell.replaceAll("|", "\\|");
}

export function renderTable(rows: readonly TableRow[]): string {
  const all = [HEADER, ...rows];
  const widths = COLUMNS.map((column) =>
    Math.max(...all.map((row) => escapePipes(row[column]).length)),
  );
  const numeric = new Set(["climpt", "langgraph", "ratio"]);
  const line = (row: TableRow): string =>
    `| ${COLUMNS.map((column, index) => {
      const cell = escapePipes(row[column]);
      const width = widths[index] as number;
      return numeric.has(column) ? cell.padStart(width) : cell.padEnd(width);
    }).join(" | ")} |`;
  const rule = `|${COLUMNS.map((column, index) => {
    const dashes = "-".repeat((widths[index] as number) + 1);
    return numeric.has(column) ? `${dashes}:` : `:${dashes}`;
  }).join("|")}|`;
  return [line(HEADER), rule, ...rows.map(line)].join("\n");
}

/** µs with a precision that suits the size. */
export function micros(value: number): string {
  if (!Number.isFinite(value)) return "–";
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function millis(value: number): string {
  if (!Number.isFinite(value)) return "–";
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function ratio(a: number, b: number): string {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return "–";
  return `${(a / b).toFixed(2)}×`;
}
