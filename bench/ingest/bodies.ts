/** The submissions the ingest benchmark sends: realistic items with every common field set. */
export function feedbackBody(items: number): string {
  return JSON.stringify({
    sessionId: 'bench-[<id>]',
    feedback: Array.from({ length: items }, (_, i) => ({
      queryId: 'query-[<id>]',
      ...(i % 5 === 4 ? { rating: 4 } : {}),
      metadata: {
        userAction: i % 5 === 1 ? 'click' : 'impression',
        resultId: `doc-${i}`,
        queryHash: 'running shoes',
        customMetadata: {
          position: i + 1,
          deviceType: 'mobile',
          searchType: 'keyword',
          language: 'en',
          viewport: { width: 390, height: 844 },
        },
      },
    })),
  });
}
