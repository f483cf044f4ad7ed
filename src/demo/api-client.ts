/** The demo's only way into the service: its public HTTP API, with the envelope unwrapped. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ApiCounters {
  requests: number;
  throttled: number;
  failed: number;
}

export class ApiClient {
  readonly counters: ApiCounters = { requests: 0, throttled: 0, failed: 0 };

  constructor(
    readonly baseUrl: string,
    private readonly key?: string,
  ) {}

  private headers(body: boolean): Record<string, string> {
    return {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(this.key ? { authorization: `Bearer ${this.key}` } : {}),
    };
  }

  /**
   * Sends one request; unwraps `{success, data}`; throws ApiError with the envelope's code
   * otherwise. Statuses in `handled` are answers the caller expects (a 404 while waiting for a
   * model, a 409 for a run already queued): thrown, not counted as failures.
   */
  async call<T>(method: string, path: string, body?: unknown, handled: number[] = []): Promise<T> {
    this.counters.requests += 1;
    let response: Response;
    try {
      response = await fetch(new URL(path, this.baseUrl), {
        method,
        headers: this.headers(body !== undefined),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      this.counters.failed += 1;
      throw new ApiError(0, 'NETWORK', `${method} ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = await response.text();
    if (response.status === 429) this.counters.throttled += 1;
    let parsed: { success?: boolean; data?: T; error?: { code: string; message: string } } | undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      if (!handled.includes(response.status)) this.counters.failed += 1;
      const error = parsed?.error;
      throw new ApiError(
        response.status,
        error?.code ?? 'HTTP',
        `${method} ${path}: ${response.status} ${error?.message ?? text.slice(0, 200)}`,
      );
    }
    // Raw documents (openapi.json) carry no envelope.
    return (parsed && parsed.success === true && 'data' in parsed ? parsed.data : parsed) as T;
  }

  get<T>(path: string, handled?: number[]): Promise<T> {
    return this.call<T>('GET', path, undefined, handled);
  }
  post<T>(path: string, body?: unknown, handled?: number[]): Promise<T> {
    return this.call<T>('POST', path, body, handled);
  }
}
