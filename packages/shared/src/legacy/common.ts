// Temporary alias of the old specifier @skillhive/shared/common; removed by the specifier rename.
export {
  DeletedCountResponse,
  EmailParam,
  Id,
  IdParam,
  InsertedIdResponse,
  ModifiedCountResponse,
  PageQuery,
  SuccessResponse,
} from '../contracts/common.ts';
export { TOTAL_COUNT_HEADER } from '../rules/http.ts';
