import { resolve } from 'node:path';

export const CLIENT_DIR = resolve(import.meta.dirname, '../../../client');
export const CLIENT_DIST = resolve(CLIENT_DIR, 'dist');
export const CLIENT_BUNDLE = resolve(CLIENT_DIST, 'index.js');
