import type { Comparison } from '../api/types';

const STATUS_ICON: Record<string, string> = {
  created: '○',
  scheduled: '◷',
  running: '▶',
  paused: '❚❚',
  stopped: '■',
  concluded: '✓',
  archived: '⌫',
  pending: '○',
  training: '⟳',
  ready: '✓',
  failed: '✕',
};

/** Status as icon + word: readable without colour. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge status-${status}`}>
      <span aria-hidden="true">{STATUS_ICON[status] ?? '•'} </span>
      {status}
    </span>
  );
}

/** Significance in words and a symbol, coloured only as a second cue. */
export function Verdict({ comparison }: { comparison: Comparison }) {
  if (comparison.pValue === null) {
    return (
      <span className="verdict verdict-none">
        n/a{comparison.reason ? ` (${comparison.reason.toLowerCase().replaceAll('_', ' ')})` : ''}
      </span>
    );
  }
  if (!comparison.significant) {
    return (
      <span className="verdict verdict-ns">
        <span aria-hidden="true">≈ </span>not significant
      </span>
    );
  }
  return comparison.improved ? (
    <span className="verdict verdict-better">
      <span aria-hidden="true">▲ </span>significant, better
    </span>
  ) : (
    <span className="verdict verdict-worse">
      <span aria-hidden="true">▼ </span>significant, worse
    </span>
  );
}
