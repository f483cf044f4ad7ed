import createClient, { type Middleware } from 'openapi-fetch';
import { getApiKey } from './key';
import type { paths } from '../../../packages/client/src/api-schema';

export interface ErrorDetail {
  path: string;
  message: string;
  in?: string;
}

/** A failed call, carrying the service's error envelope (or what went wrong before one arrived). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const withKey: Middleware = {
  onRequest({ request }) {
    const key = getApiKey();
    if (key) request.headers.set('authorization', `Bearer ${key}`);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: '' });
api.use(withKey);

interface Envelope<T> {
  data?: { success: true; data: T } | undefined;
  error?: unknown;
  response: Response;
}

/** Unwraps `{success, data}` or throws the envelope's error as an ApiError. */
export async function unwrap<T>(call: Promise<Envelope<T>>): Promise<T> {
  let result: Envelope<T>;
  try {
    result = await call;
  } catch (error) {
    throw new ApiError(0, 'NETWORK', `the service did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (result.data !== undefined && result.response.ok) return result.data.data;
  const body = result.error as { error?: { code?: string; message?: string; details?: ErrorDetail[]; requestId?: string } } | undefined;
  const e = body?.error;
  throw new ApiError(
    result.response.status,
    e?.code ?? `HTTP_${result.response.status}`,
    e?.message ?? `the service answered ${result.response.status} ${result.response.statusText}`,
    e?.details ?? [],
    e?.requestId ?? result.response.headers.get('x-request-id'),
  );
}

/** Raw file downloads (judgments, exports) go through fetch with the same key. */
export async function download(url: string, filename: string): Promise<void> {
  const key = getApiKey();
  const response = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { code: string; message: string; requestId: string } } | null;
    throw new ApiError(
      response.status,
      body?.error?.code ?? `HTTP_${response.status}`,
      body?.error?.message ?? response.statusText,
      [],
      body?.error?.requestId ?? response.headers.get('x-request-id'),
    );
  }
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(href);
}
