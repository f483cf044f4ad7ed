import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_API_TYPES_FILE, renderClientApiTypes } from '../../packages/client/scripts/api-types.js';

describe('the client’s API types', () => {
  it('equal what openapi-typescript makes of the live OpenAPI document (run `npm run api-types` after changing a schema)', async () => {
    const live = await renderClientApiTypes();
    const committed = fs.readFileSync(CLIENT_API_TYPES_FILE, 'utf8');
    expect(committed === live, 'packages/client/src/api-schema.ts is stale: run `npm run api-types` and commit it').toBe(true);
  });
});
