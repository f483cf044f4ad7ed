/** One entry of an error's details: a JSON pointer into the request and what is wrong there. */
export interface ErrorDetail {
  path: string;
  message: string;
  [key: string]: unknown;
}

/**
 * Every failure the client reports: the service's error envelope (`code`, `details`,
 * `requestId`) with the HTTP status, or `NETWORK_ERROR` / `TIMEOUT` (status 0) when no answer came.
 */
export class SearchloopError extends Error {
  override readonly name = 'SearchloopError';
  readonly code: string;
  readonly status: number;
  readonly details: ErrorDetail[];
  readonly requestId: string | undefined;
  /** Seconds the service asked to wait (429 and 503 answers with Retry-After). */
  readonly retryAfter: number | undefined;

  constructor(init: { code: string; status: number; message: string; details?: ErrorDetail[]; requestId?: string; retryAfter?: number }) {
    super(init.message);
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? [];
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
  }
}

/** Statuses worth another attempt: the request may succeed later unchanged. */
export function isRetryable(error: SearchloopError): boolean {
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}
