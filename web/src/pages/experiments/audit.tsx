import { useEvents } from '../../api/queries';
import type { AuditEvent } from '../../api/types';
import { ErrorState, Loading } from '../../components/states';
import { dateTime } from '../../format';

function describe(event: AuditEvent): string {
  const before = (event.before ?? {}) as Record<string, unknown>;
  const after = (event.after ?? {}) as Record<string, unknown>;
  if (event.action === 'create') return 'created';
  if (typeof before.status === 'string' && typeof after.status === 'string' && before.status !== after.status) {
    return `${event.action}: ${before.status} → ${after.status}`;
  }
  const changed = Object.keys(after);
  return changed.length ? `${event.action.replace('_', ' ')}: ${changed.join(', ')}` : event.action;
}

export function AuditTimeline({ experimentId }: { experimentId: string }) {
  const events = useEvents(experimentId);
  return (
    <section aria-labelledby="audit-title" className="card">
      <h2 id="audit-title">Audit log</h2>
      {events.error && <ErrorState error={events.error} />}
      {events.isPending && <Loading what="the audit log" />}
      {events.data && (
        <ol className="timeline" data-testid="audit-log">
          {events.data.items.map((e) => (
            <li key={e.eventId}>
              <time dateTime={e.at}>{dateTime(e.at)}</time>
              <span className="strong"> {describe(e)}</span>
              <span className="muted small"> by {e.actor}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
