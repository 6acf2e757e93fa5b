// Temporary alias of the old specifier @skillhive/shared/money; removed by the specifier rename.
export { centsToDecimal, decimalToCents, formatPrice } from '../rules/money.ts';
