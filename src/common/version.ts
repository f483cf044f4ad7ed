import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** The package version, read once from package.json (src/common/ and dist/common/ sit two levels below it). */
export const VERSION: string = (require('../../package.json') as { version: string }).version;
