import { Parser } from 'htmlparser2';

const BLOCK = new Set(['p', 'div', 'br', 'tr', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'section', 'title']);
const SKIP = new Set(['script', 'style', 'head']);

/**
 * Converts an EDGAR primary document to page texts in the layout of the page-text corpus: block elements end
 * lines, table cells are separated by three spaces, and pages split at CSS page breaks. Keeping one text shape
 * lets a single segmenter and table reader serve both inputs.
 */
export function htmlToPages(html: string): string[] {
  const pages: string[] = [];
  let lines: string[] = [];
  let line = '';
  let skipDepth = 0;
  let cells: string[] | null = null;
  let cell = '';

  const flushLine = () => {
    const text = line.replace(/[ \t\u00a0]+/g, ' ').trim();
    if (text) lines.push(text);
    line = '';
  };
  const flushPage = () => {
    flushLine();
    const text = lines.join('\n').trim();
    if (text) pages.push(text);
    lines = [];
  };
  const isPageBreak = (attrs: Record<string, string>) =>
    /page-break-(before|after)\s*:\s*always/i.test(attrs.style ?? '');

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (SKIP.has(name)) skipDepth++;
        if (name === 'tr') cells = [];
        if (name === 'td' || name === 'th') cell = '';
        if (isPageBreak(attrs) && /before/i.test(attrs.style ?? '')) flushPage();
        if (name === 'hr' && isPageBreak(attrs)) flushPage();
        else if (BLOCK.has(name) && !cells) flushLine();
      },
      ontext(text) {
        if (skipDepth) return;
        if (cells) cell += text;
        else line += text;
      },
      onclosetag(name) {
        if (SKIP.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        if ((name === 'td' || name === 'th') && cells) {
          const value = cell.replace(/[\s\u00a0]+/g, ' ').trim();
          if (value) cells.push(value);
          cell = '';
        } else if (name === 'tr' && cells) {
          // "$" and ")" cells that EDGAR puts in their own columns are glued to their numbers.
          const merged: string[] = [];
          for (const c of cells) {
            const last = merged.length - 1;
            if (c === ')' && last >= 0) merged[last] += ')';
            else if (c === '%' && last >= 0) merged[last] += '%';
            else merged.push(c);
          }
          flushLine();
          if (merged.length) lines.push(merged.join('   '));
          cells = null;
        } else if (BLOCK.has(name) && !cells) flushLine();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flushPage();
  return pages;
}
