import { readFileSync } from 'node:fs';

/** GICS and display name for one ticker, from an S&P 500 constituents CSV. */
export interface Classification {
  security: string | null;
  gics_sector: string | null;
  gics_sub_industry: string | null;
}

/** RFC 4180 fields: commas, double quotes, doubled quotes inside quotes, CRLF or LF. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f !== '')) rows.push(row);
  return rows;
}

const norm = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

/**
 * EDGAR knows a company's SIC code, not its GICS classification, so GICS comes from a constituents table when one
 * is given: the columns Symbol (or ticker), GICS Sector, GICS Sub-Industry and optionally Security, in either the
 * `GICS Sector` or the `gics_sector` spelling.
 */
export function parseConstituents(text: string, where = 'constituents CSV'): Map<string, Classification> {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new Error(`${where}: empty`);
  const names = header.map(norm);
  const col = (...options: string[]) => names.findIndex((n) => options.includes(n));
  const symbol = col('symbol', 'ticker');
  const sector = col('gics sector');
  const sub = col('gics sub industry');
  const security = col('security', 'company');
  if (symbol < 0 || sector < 0 || sub < 0)
    throw new Error(`${where}: needs Symbol, GICS Sector and GICS Sub-Industry columns, found ${header.join(', ')}`);
  const out = new Map<string, Classification>();
  const value = (row: string[], i: number) => (i >= 0 && row[i]?.trim() ? row[i]!.trim() : null);
  for (const row of rows) {
    const ticker = value(row, symbol)?.toUpperCase().replace(/\./g, '-');
    if (!ticker || out.has(ticker)) continue;
    out.set(ticker, {
      security: value(row, security),
      gics_sector: value(row, sector),
      gics_sub_industry: value(row, sub),
    });
  }
  return out;
}

export const readConstituents = (path: string) => parseConstituents(readFileSync(path, 'utf8'), path);
