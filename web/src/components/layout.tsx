import { useSyncExternalStore } from 'react';
import { NavLink, Outlet } from 'react-router';
import { getApiKey, subscribeApiKey } from '../api/key';

const NAV = [
  { to: '/', label: 'Overview', end: true },
  { to: '/experiments', label: 'Experiments', end: false },
  { to: '/models', label: 'Models', end: false },
  { to: '/evaluate', label: 'Evaluate', end: false },
  { to: '/production', label: 'Production', end: false },
  { to: '/feedback', label: 'Feedback', end: false },
  { to: '/queries', label: 'Queries', end: false },
  { to: '/settings', label: 'Settings', end: false },
];

export function Layout() {
  const key = useSyncExternalStore(subscribeApiKey, getApiKey);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <NavLink to="/" className="brand" aria-label="Searchloop overview">
          <img src="/favicon.svg" alt="" width="24" height="24" />
          Searchloop
        </NavLink>
        <nav aria-label="Main">
          <ul className="nav">
            {NAV.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <span
          className="key-state muted small"
          title={
            key
              ? 'An API key is sent with every request (change it in Settings)'
              : 'No API key is sent: fine while the service has no keys (open on loopback); set one in Settings once it asks for one'
          }
        >
          {key ? '🔑 key set' : 'no key'}
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="footer muted small">
        API reference at <a href="/docs">/docs</a> · OpenAPI document at <a href="/openapi.json">/openapi.json</a>
      </footer>
    </>
  );
}
