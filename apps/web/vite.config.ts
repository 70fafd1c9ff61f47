import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants } from 'node:zlib';

/** A package in node_modules, by name (scoped names with their scope). */
const pkg = (...names: string[]) =>
  new RegExp(`[\\\\/]node_modules[\\\\/](?:${names.join('|')})[\\\\/]`);

// @portal/shared resolves through its package exports to packages/shared/dist, so the web app
// bundles exactly what the server runs (build the shared package first).
export default defineConfig({
  plugins: [
    react(),
    // Every compressible file gets a brotli (.br, maximum quality) and a gzip (.gz) sibling,
    // written once at build; the server sends the one the browser accepts (ADR 019). A sibling
    // that would not be smaller is left out, and the server then sends the file as it is.
    compression({
      include: /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/,
      algorithms: [
        defineAlgorithm('brotliCompress', {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
        }),
        defineAlgorithm('gzip', { level: constants.Z_BEST_COMPRESSION }),
      ],
      logLevel: 'silent',
    }),
  ],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps in production: the bundle is all the browser needs (and app.ts serves no .map).
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Vendor code in chunks of its own, named, so that a deploy of the app's code leaves
        // their hashes (and the browsers' year-long cached copies) as they were, and a test can
        // tell from the names what the login route loaded. Higher priority picks first. The
        // shell's vendors hold only what the entry reaches statically ($initial); the editor,
        // the date pickers and the dropzone stay with the screens that import them.
        codeSplitting: {
          groups: [
            {
              name: 'vendor-react',
              test: pkg('react', 'react-dom', 'scheduler', 'react-router'),
              tags: ['$initial'],
              priority: 50,
            },
            {
              name: 'vendor-mantine',
              test: pkg('@mantine', '@floating-ui'),
              tags: ['$initial'],
              priority: 40,
            },
            // The rest of Mantine that signed-in screens share (tables, selects, dialogs).
            {
              name: 'vendor-mantine-more',
              test: pkg(
                '@mantine[\\\\/](?:core|hooks|modals|store)',
                '@floating-ui',
                'react-remove-scroll[^\\\\/]*',
                'react-number-format',
              ),
              priority: 35,
            },
            // What else the shell needs: TanStack Query, i18next, zod, the icons it shows.
            { name: 'vendor', test: pkg('[^\\\\/]+'), tags: ['$initial'], priority: 30 },
            {
              name: 'vendor-editor',
              test: pkg('@tiptap', 'prosemirror-[^\\\\/]+', '@mantine[\\\\/]tiptap', 'linkifyjs'),
              priority: 20,
            },
            { name: 'vendor-dates', test: pkg('@mantine[\\\\/]dates', 'dayjs'), priority: 20 },
            // The dashboard's charts (ADR 060) and the store hook that both recharts and the editor
            // use, apart, so that the start page never loads the editor's code.
            {
              name: 'vendor-charts',
              test: pkg(
                '@mantine[\\\\/]charts',
                'recharts',
                'react-redux',
                '@reduxjs[\\\\/][^\\\\/]+',
                'immer',
                'reselect',
                'redux',
                'd3-[^\\\\/]+',
                'victory-vendor',
              ),
              priority: 20,
            },
            { name: 'vendor-sync', test: pkg('use-sync-external-store'), priority: 25 },
            {
              name: 'vendor-dropzone',
              test: pkg('@mantine[\\\\/]dropzone', 'react-dropzone', 'file-selector'),
              priority: 20,
            },
          ],
        },
      },
    },
  },
});
