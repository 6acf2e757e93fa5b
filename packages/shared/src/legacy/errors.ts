// Temporary alias of the old specifier @skillhive/shared/errors; removed by the specifier rename.
export { ErrorBody } from '../contracts/errors.ts';
export { ErrorCode } from '../rules/http.ts';
