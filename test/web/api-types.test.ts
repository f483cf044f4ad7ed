import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, renderApiTypes } from '../../web/scripts/api-types.js';

describe('the dashboard’s API types', () => {
  it('equal what openapi-typescript makes of the live OpenAPI document (run `npm run api-types` after changing a schema)', async () => {
    const live = await renderApiTypes();
    const committed = fs.readFileSync(API_TYPES_FILE, 'utf8');
    expect(committed === live, 'web/src/api/schema.d.ts is stale: run `npm run api-types` and commit it').toBe(true);
  });
});
