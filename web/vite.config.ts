import { resolve } from 'node:path';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

/**
 * The hosted pages: one single-page app, its pages split so that the sign-in
 * pages load only what they need (the account page and the console are lazy
 * chunks). It talks to the API through the SDK in client/ only.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [preact()],
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    // No inline script anywhere (the CSP has no 'unsafe-inline'): the module preload polyfill is inline.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
