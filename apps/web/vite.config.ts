import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// @portal/shared resolves through its package exports to packages/shared/dist, so the web app
// bundles exactly what the server runs (build the shared package first).
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  // No source maps in production: the bundle is all the browser needs (and app.ts serves no .map).
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
});
