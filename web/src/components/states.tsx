import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/client';

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** The service's error envelope as it came: message, code, requestId (to quote in a report). */
export function ErrorState({ error, title = 'The service answered with an error' }: { error: unknown; title?: string }) {
  const e = error instanceof ApiError ? error : null;
  const needsKey = e?.status === 401;
  return (
    <div className="callout callout-error" role="alert">
      <h2 className="callout-title">
        <span aria-hidden="true">⛔ </span>
        {needsKey ? 'An API key is required' : title}
      </h2>
      <p data-testid="error-message">{e ? e.message : error instanceof Error ? error.message : String(error)}</p>
      {e && e.details.length > 0 && (
        <ul>
          {e.details.map((d) => (
            <li key={`${d.in}:${d.path}`}>
              <code>{d.path}</code> {d.message}
            </li>
          ))}
        </ul>
      )}
      <p className="muted small">
        {e && (
          <>
            {e.status > 0 && `HTTP ${e.status} · `}
            <code>{e.code}</code>
            {e.requestId && (
              <>
                {' · requestId '}
                <code data-testid="request-id">{e.requestId}</code>
              </>
            )}
          </>
        )}
      </p>
      {(needsKey || e?.status === 403) && (
        <p>
          <Link to="/settings">Enter an API key in Settings</Link> (a <code>read</code> key to look, <code>admin</code> to change things).
        </p>
      )}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="callout callout-empty">
      <h2 className="callout-title">{title}</h2>
      {children}
    </div>
  );
}

/** A command the user can copy as it is. */
export function Command({ children, label }: { children: string; label: string }) {
  return (
    <pre className="command" aria-label={label} tabIndex={0}>
      <code>{children}</code>
    </pre>
  );
}
