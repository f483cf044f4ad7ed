export function measureBeacon(): Promise<{ code: Uint8Array; minified: number; gzipped: number; budget: number }>;
