/** The closed list of error codes a client can see, with their HTTP status. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  /** JSON pointer into the part named by `in` (e.g. /feedback/0/rating). */
  path: string;
  message: string;
  /** Which part of the request: body, querystring, params or headers. */
  in?: 'body' | 'querystring' | 'params' | 'headers';
}

/** Base class of every error that reaches a client on purpose. Services throw these. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details: ErrorDetail[] = []) {
    super('VALIDATION_ERROR', message, details);
  }
  static field(path: string, message: string, where: ErrorDetail['in'] = 'body'): ValidationError {
    return new ValidationError(`${path}: ${message}`, [{ path, message, in: where }]);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details: ErrorDetail[] = []) {
    super('CONFLICT', message, details);
  }
}

export class UnavailableError extends AppError {
  constructor(message: string) {
    super('UNAVAILABLE', message);
  }
}
