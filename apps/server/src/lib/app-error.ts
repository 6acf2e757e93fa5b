import { ErrorCode } from '@skillhive/shared/rules/http';

export { ErrorCode };

/** HTTP status for each error code; the error handler is the only reader. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  [ErrorCode.VALIDATION]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.CARD_DECLINED]: 402,
  [ErrorCode.INSUFFICIENT_FUNDS]: 402,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.EMAIL_NOT_VERIFIED]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: 415,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.INTERNAL]: 500,
  [ErrorCode.UNAVAILABLE]: 503,
};

/** The one way services and routes fail (STYLE.md): a code, a message the user may read. */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { fields?: Record<string, string>; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.fields = options.fields;
    this.headers = options.headers;
  }

  get statusCode(): number {
    return STATUS_BY_CODE[this.code];
  }
}

export const notFound = (what = 'Resource') => new AppError(ErrorCode.NOT_FOUND, `${what} not found`);
export const forbidden = (message = 'You do not have permission to do this') =>
  new AppError(ErrorCode.FORBIDDEN, message);
export const unauthenticated = (message = 'Please sign in') => new AppError(ErrorCode.UNAUTHENTICATED, message);
export const conflict = (message: string) => new AppError(ErrorCode.CONFLICT, message);
