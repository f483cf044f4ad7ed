import { describe, expect, it } from 'vitest';
import { measureBeacon } from '../../packages/client/scripts/size.mjs';

describe('@searchloop/client/beacon', () => {
  it('stays under 4 KB minified and gzipped (the build measures it the same way)', async () => {
    const size = await measureBeacon();
    expect(size.gzipped).toBeGreaterThan(500);
    expect(size.gzipped).toBeLessThanOrEqual(4096);
  });
});
