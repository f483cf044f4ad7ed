import fs from 'node:fs';
import { CLIENT_API_TYPES_FILE, renderClientApiTypes } from './api-types.js';

fs.writeFileSync(CLIENT_API_TYPES_FILE, await renderClientApiTypes());
process.stdout.write(`wrote ${CLIENT_API_TYPES_FILE}\n`);
