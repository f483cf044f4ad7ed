import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { getApiKey, setApiKey, subscribeApiKey } from '../api/key';
import { useSystem } from '../api/queries';
import { ErrorState, Loading } from '../components/states';
import { useTitle } from '../components/title';

export function SettingsPage() {
  useTitle('Settings');
  const stored = useSyncExternalStore(subscribeApiKey, getApiKey);
  const [draft, setDraft] = useState('');
  const [saved, setSaved] = useState(false);
  const system = useSystem();
  const save = (event: FormEvent) => {
    event.preventDefault();
    setApiKey(draft);
    setDraft('');
    setSaved(true);
  };
  return (
    <>
      <h1>Settings</h1>
      <section className="card" aria-labelledby="key-title">
        <h2 id="key-title">API key</h2>
        <p>
          A server with API keys answers the dashboard only with one: a <code>read</code> key to look, an <code>admin</code> key to start
          experiments, train models or erase sessions. The key stays in this browser tab (session storage) and is sent as{' '}
          <code>Authorization: Bearer …</code> to this server only. Create one with{' '}
          <code>searchloop keys create --name dashboard --scope admin</code>.
        </p>
        <p data-testid="key-status">
          {stored ? (
            <>
              <span aria-hidden="true">🔑 </span>A key ending in <code>…{stored.slice(-4)}</code> is set for this tab.
            </>
          ) : (
            'No key is set: requests go without one (fine for a server without keys).'
          )}
        </p>
        <form onSubmit={save} className="filters">
          <label>
            API key{' '}
            <input
              type="password"
              autoComplete="off"
              value={draft}
              onChange={(e) => {
                setDraft(e.target.value);
                setSaved(false);
              }}
              placeholder="sl_admin_…"
            />
          </label>
          <div className="actions">
            <button type="submit" className="primary" disabled={!draft.trim()}>
              Save key
            </button>
            {stored && (
              <button type="button" onClick={() => setApiKey(null)}>
                Forget key
              </button>
            )}
          </div>
        </form>
        {saved && (
          <p role="status" className="muted small">
            Saved. Every page now asks with this key.
          </p>
        )}
      </section>
      <section className="card" aria-labelledby="server-title">
        <h2 id="server-title">Server</h2>
        {system.isPending && <Loading what="server information" />}
        {system.error && <ErrorState error={system.error} />}
        {system.data && (
          <dl className="facts" data-testid="server-facts">
            <dt>Version</dt>
            <dd data-field="version">{system.data.version}</dd>
            <dt>Database</dt>
            <dd data-field="database">{system.data.database === 'sqlite' ? 'SQLite (embedded)' : 'PostgreSQL'}</dd>
            <dt>Authentication</dt>
            <dd data-field="authentication">
              {system.data.authentication === 'keys' ? 'API keys required' : 'open: no API key is configured'}
            </dd>
          </dl>
        )}
      </section>
    </>
  );
}
