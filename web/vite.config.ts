import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard builds into web/dist, which the service serves at / (src/http/dashboard.ts).
// `npm run dev:web` serves it with hot reload and sends /api to a service on :3000.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    // Our own budget check (scripts/build.ts) measures what a first visit downloads.
    chunkSizeWarningLimit: 1000,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/openapi.json': 'http://127.0.0.1:3000',
    },
  },
});
