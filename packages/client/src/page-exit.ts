interface EventTargetLike {
  addEventListener(type: string, listener: () => void, options?: { capture?: boolean }): void;
  removeEventListener(type: string, listener: () => void, options?: { capture?: boolean }): void;
}

/**
 * Calls `onExit` when the page is being left or hidden (`pagehide`, `visibilitychange` to
 * hidden): the last moments a page can still send (web.dev "Page Lifecycle API"; `unload` is
 * unreliable and blocks the back/forward cache). Returns the unsubscribe; outside a browser, a no-op.
 */
export function onPageExit(onExit: () => void): () => void {
  const win = globalThis as unknown as Partial<EventTargetLike>;
  const doc = (globalThis as unknown as { document?: EventTargetLike & { visibilityState?: string } }).document;
  if (typeof win.addEventListener !== 'function' || !doc) return () => undefined;
  const onHidden = () => {
    if (doc.visibilityState === 'hidden') onExit();
  };
  win.addEventListener('pagehide', onExit, { capture: true });
  doc.addEventListener('visibilitychange', onHidden, { capture: true });
  return () => {
    win.removeEventListener?.('pagehide', onExit, { capture: true });
    doc.removeEventListener('visibilitychange', onHidden, { capture: true });
  };
}
