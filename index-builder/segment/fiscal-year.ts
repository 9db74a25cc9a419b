/** DESIGN.md section 5: the calendar year the fiscal year ends in, except years ending January 1-7. */
export function fiscalYearLabel(periodEnd: string): number {
  const [y, m, d] = periodEnd.split('-').map(Number) as [number, number, number];
  return m === 1 && d <= 7 ? y - 1 : y;
}
