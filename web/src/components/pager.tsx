import { useState } from 'react';

/** Cursor paging: the cursors of the pages visited so far, so Previous works without offsets. */
export function useCursorPager(resetKey: string) {
  const [state, setState] = useState<{ key: string; stack: (string | undefined)[] }>({ key: resetKey, stack: [undefined] });
  const stack = state.key === resetKey ? state.stack : [undefined];
  return {
    cursor: stack[stack.length - 1],
    page: stack.length,
    next: (cursor: string) => setState({ key: resetKey, stack: [...stack, cursor] }),
    previous: () => setState({ key: resetKey, stack: stack.slice(0, -1) }),
  };
}

export function Pager({
  page,
  nextCursor,
  onNext,
  onPrevious,
  label,
}: {
  page: number;
  nextCursor: string | null | undefined;
  onNext: (cursor: string) => void;
  onPrevious: () => void;
  label: string;
}) {
  if (page === 1 && !nextCursor) return null;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" onClick={onPrevious} disabled={page === 1}>
        ← Previous
      </button>
      <span aria-live="polite">Page {page}</span>
      <button type="button" onClick={() => nextCursor && onNext(nextCursor)} disabled={!nextCursor}>
        Next →
      </button>
    </nav>
  );
}
