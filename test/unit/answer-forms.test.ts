import { describe, expect, it } from 'vitest';
import type { Directory } from '../../src/format/types';
import { analyzeQuery } from '../../src/query/analyze';
import { chainRelevance, RANKING } from '../../src/search/ranking';
import { ANSWER_FORM, askedAnswerForm, statementAnswerForms } from '../../src/text/answer-forms';

const { count, amount, date, party } = ANSWER_FORM;

describe('answer forms of a statement, from its own text', () => {
  it('reads a count of things, not of money, percent or time', () => {
    expect(statementAnswerForms('As of December 31, 2022, we employed approximately 22,000 people.', 'sentence')).toBe(
      count,
    );
    expect(statementAnswerForms('We have 3 reportable segments.', 'sentence')).toBe(count);
    expect(statementAnswerForms('Revenue grew 12 percent in fiscal 2023.', 'sentence')).toBe(0);
    expect(statementAnswerForms('In 2023 sales increased 5%.', 'sentence')).toBe(0);
    expect(statementAnswerForms('The term is 12 months from the grant date.', 'sentence')).toBe(0);
  });

  it('reads an amount of money, and a table row stated in a currency', () => {
    expect(statementAnswerForms('Capital expenditures were $412 million in fiscal 2023.', 'sentence')).toBe(amount);
    expect(
      statementAnswerForms(
        'Purchases of PP&E: (412) for fiscal year ended September 30, 2023 (USD millions)',
        'table_row',
      ),
    ).toBe(amount);
    expect(statementAnswerForms('Employees: 22,000 for fiscal year ended September 30, 2023', 'table_row')).toBe(0);
  });

  it('reads a date something happened on, not the end of a period', () => {
    expect(statementAnswerForms('On December 8, 2016, we completed the acquisition.', 'sentence')).toBe(date);
    expect(statementAnswerForms('In March 2021 the plant opened.', 'sentence')).toBe(date);
    expect(statementAnswerForms('Net sales for the quarter ended July 1, 2023 rose.', 'sentence')).toBe(0);
    expect(statementAnswerForms('Cash as of December 31, 2022 was higher.', 'sentence')).toBe(0);
  });

  it('reads a named counterparty', () => {
    expect(statementAnswerForms('We acquired Bemis Company, Inc. in June.', 'sentence') & party).toBe(party);
    expect(statementAnswerForms('Our largest customer is the U.S. Government.', 'sentence')).toBe(party);
    expect(statementAnswerForms('Our largest customer is a government agency.', 'sentence')).toBe(0);
  });
});

describe('the answer form a question asks for', () => {
  it('reads the interrogative', () => {
    expect(askedAnswerForm('How many employees did Quillvale have at year end?')).toBe('count');
    expect(askedAnswerForm('How much did Quillvale spend on capital expenditure in 2023?')).toBe('amount');
    expect(askedAnswerForm('When did Quillvale complete the Penhallow expansion?')).toBe('date');
    expect(askedAnswerForm('Who is Quillvale’s largest customer?')).toBe('party');
    expect(askedAnswerForm('Which companies did Quillvale acquire in 2022?')).toBe('party');
    expect(askedAnswerForm('What was Quillvale’s revenue in fiscal 2023?')).toBeNull();
    // A ratio asked as "how many times", and "when" that introduces a condition, ask for neither.
    expect(askedAnswerForm('Roughly how many times did Quillvale turn its inventory?')).toBeNull();
    expect(askedAnswerForm('When referencing the balance sheet, what is the current ratio?')).toBeNull();
  });

  it('is part of the question’s analysis', () => {
    const directory = { field_values: {} as Directory['field_values'], companies: [] };
    expect(analyzeQuery('How many stores are open?', directory).asks).toBe('count');
    expect(analyzeQuery('What drove gross margin?', directory).asks).toBeNull();
  });
});

describe('the answer form in chain relevance', () => {
  it('adds its points to the raw relevance, shown in the parts', () => {
    const weights = new Map([['employees', 1]]);
    const plain = chainRelevance(new Set(['employees']), weights, 0.2);
    const answers = chainRelevance(new Set(['employees']), weights, 0.2, undefined, false, true);
    expect(plain.answerForm).toBe(0);
    expect(answers.answerForm).toBe(RANKING.relevance.answerFormBonus);
    expect(answers.score).toBe(Math.min(10, plain.score + RANKING.relevance.answerFormBonus));
  });
});
