import { useEffect } from 'react';

/** Sets the document title (what a screen reader announces and a tab shows). */
export function useTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · Searchloop`;
  }, [title]);
}
