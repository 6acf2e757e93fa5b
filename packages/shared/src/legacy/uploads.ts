// Temporary alias of the old specifier @skillhive/shared/uploads; removed by the specifier rename.
export { UploadResponse } from '../contracts/uploads.ts';
export { ACCEPTED_IMAGE_TYPES, type AcceptedImageType, UPLOAD_FIELD } from '../rules/constants.ts';
export { UPLOAD_MESSAGES } from '../rules/messages.ts';
