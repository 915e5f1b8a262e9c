export interface CatalogueRow {
  code: string;
  meaning: string;
  example: string;
  fix: string;
  table: string;
  /** The packages (their folder names) whose code table holds the code. */
  owners: Set<string>;
  /** The packages whose non-test source writes the code. */
  emitters: Set<string>;
}
export function buildCatalogue(): CatalogueRow[];
export function renderCatalogue(rows: CatalogueRow[]): string;
export function renderReadmes(rows: CatalogueRow[]): Map<string, string>;
