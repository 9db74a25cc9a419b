import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sentencePieces } from '../../index-builder/statements/sentence-pieces';
import { segmentFiling } from '../../index-builder/segment/segment';
import { extractStatements } from '../../index-builder/statements/statements';

// Written for this test (invented company): a risk factor printed as one run-on sentence of bullets, each item ending
// in a semicolon, over 900 characters in all.
const ITEMS = [
  'limiting our ability to obtain additional financing to fund working capital, capital expenditures and acquisitions',
  'exposing us to interest rate risk on the portion of our borrowings that bears interest at variable rates',
  'limiting our ability to pay dividends on our common stock or to repurchase shares under the authorized program',
  'impairing our access to the commercial paper and term debt markets on terms we find acceptable',
  'requiring that a growing portion of our cash flows from operations be dedicated to paying interest on debt',
  'placing us at a disadvantage against competitors that carry less debt than we do in the regions we serve',
  'increasing our vulnerability to a downturn in the demand for industrial widgets in Europe and North America',
  'restricting the liens we may grant on the Lakeside and Riverton plants under the covenants of our notes',
  'and reducing our flexibility to plan for the retirement of the Harbor Point warehouse and the Delta fleet',
];
const LEAD = 'Our indebtedness could have important consequences, including:';
const RUN_ON = `${LEAD} ${ITEMS.map((s) => `•   ${s};`).join(' ')}`;

/** The builder's test of a claim, with a least length of `min` characters. */
const shorterThan = (min: number) => (text: string) => text.length < min || text.split(/\s+/).length < 4;

describe('sentencePieces', () => {
  it('keeps a sentence within the limit whole', () => {
    expect(sentencePieces('Net sales rose 10% to $1,410 million.', 900, shorterThan(25))).toEqual([
      { text: 'Net sales rose 10% to $1,410 million.', start: 0 },
    ]);
  });

  it('cuts a run-on list before each bullet, keeping its lead', () => {
    const pieces = sentencePieces(RUN_ON, 900, shorterThan(25));
    expect(pieces.map((p) => p.text)).toEqual([LEAD, ...ITEMS.map((s) => `•   ${s};`)]);
  });

  it('cuts a long piece without bullets after a semicolon, then a comma, then a word', () => {
    const clauses = Array.from({ length: 12 }, (_, i) => `(${i + 1}) the clause number ${i + 1} of the definition`);
    const defined = `Adjusted income means income before taxes excluding ${clauses.join('; ')}.`;
    const pieces = sentencePieces(defined, 300, shorterThan(25));
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces.slice(0, -1)) expect(p.text.endsWith(';')).toBe(true);
    const words = `${'word '.repeat(400)}end`;
    expect(
      sentencePieces(words, 300, shorterThan(25)).every((p) => p.text.length <= 300 && !p.text.startsWith(' ')),
    ).toBe(true);
  });

  it('drops no character and cuts no piece over the limit', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', ' ', ';', ',', '•', '◦', 'X', '\n'),
      minLength: 1,
      maxLength: 400,
    });
    fc.assert(
      fc.property(text, fc.integer({ min: 20, max: 120 }), (sentence, max) => {
        const pieces = sentencePieces(sentence, max, shorterThan(10));
        let at = 0;
        for (const p of pieces) {
          expect(sentence.slice(p.start, p.start + p.text.length)).toBe(p.text);
          expect(sentence.slice(at, p.start).trim()).toBe('');
          if (sentence.length > max) expect(p.text.length).toBeLessThanOrEqual(max);
          at = p.start + p.text.length;
        }
        expect(sentence.slice(at).trim()).toBe('');
      }),
    );
  });
});

describe('a run-on sentence in a filing', () => {
  it('reaches statements to its last item', () => {
    const page = ['Item 1A. Risk Factors', 'Risks related to our debt', RUN_ON].join('\n');
    const sentences = segmentFiling('10-K', [page])
      .flatMap((s) => extractStatements(s, '10-K'))
      .filter((s) => s.kind === 'sentence');
    const last = sentences.find((s) => s.text.includes('Harbor Point warehouse'));
    expect(last?.text).toBe(`•   ${ITEMS.at(-1)};`);
    expect(sentences.some((s) => s.text.endsWith('…'))).toBe(false);
    // The piece's place in the page is where its text is.
    expect(page.slice(last!.offset, last!.endOffset)).toBe(last!.text);
  });
});
