import fs from 'node:fs';
import { API_TYPES_FILE, renderApiTypes } from './api-types.js';

fs.writeFileSync(API_TYPES_FILE, await renderApiTypes());
process.stdout.write(`wrote ${API_TYPES_FILE}\n`);
