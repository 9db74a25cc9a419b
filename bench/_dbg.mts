import { parseMonthDays, splitColumns, TableState } from '../index-builder/statements/table-facts';
const l = '(In millions) (Unaudited)   March 31,   March 31,';
console.log(splitColumns(l), parseMonthDays(l), TableState.isFurniture(l));
