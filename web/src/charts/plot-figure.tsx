import * as Plot from '@observablehq/plot';
import { useEffect, useRef, useState } from 'react';

/**
 * Renders an Observable Plot figure at the width of its container (re-rendered on resize), so a
 * chart fits a phone as well as a desktop. The caller describes the figure; data tables next to
 * each chart carry the same numbers in text.
 */
export function PlotFigure({ make, label, height }: { make: (width: number) => Plot.PlotOptions; label: string; height?: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    const node = ref.current;
    if (!node || width === 0) return;
    const figure = Plot.plot({ ...make(width), width, ...(height ? { height } : {}) });
    figure.setAttribute('role', 'img');
    figure.setAttribute('aria-label', label);
    node.replaceChildren(figure);
    return () => figure.remove();
  }, [make, width, height, label]);
  return <div ref={ref} className="plot" />;
}

export { Plot };
