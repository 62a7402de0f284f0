import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { reactOnPreact } from './scripts/react-on-preact';
import { reactRouterProduction } from './scripts/react-router-production';
import { phoneMetadataAsJson } from './scripts/phone-metadata-as-json';
import { landingPreloads } from './src/web/landing/landing-plugin';
import { installableApp } from './src/web/pwa/pwa-plugin';

const serverUrl = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig(({ command }) => ({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), phoneMetadataAsJson(), landingPreloads(), installableApp()],
  resolve: { alias: command === 'build' ? [...reactOnPreact, ...reactRouterProduction] : reactOnPreact },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    // Browsers that run calls (AudioWorklet, WebCodecs or WebRTC) preload modules natively (Chrome 66,
    // Firefox 115, Safari 17); one that does not still loads them, a little later. The polyfill cost every first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // Required by inlineCommonChunks below: no entry chunk exports anything another chunk needs.
      preserveEntrySignatures: false,
      output: {
        // The framework (Preact under React's name, and the router), which every page loads, changes
        // less often than our code: its own chunk stays cached across releases. Other libraries go with the pages that import them: a catch-all
        // vendor chunk put every page's libraries in the first load, and a zod chunk put all of zod
        // on pages that parse with its core and mini API alone (decision 021).
        codeSplitting: {
          groups: [
            { name: 'framework', test: /node_modules[\\/](preact|react-router|react-router-dom)[\\/]/ },
          ],
          // Without this, a signed-in page fetched 30 to 40 chunks of 1–3 kB: one for each set of pages
          // sharing a module. Over HTTP/1.1's six connections that took several round trips, and the
          // page's largest paint waited for them (decision 042). Rolldown copies a small shared chunk
          // into the chunks that import it, and its runtime keeps one instance of each module.
          experimentalInlineCommonChunks: { maxSize: 8 * 1024, exclude: /\.css(\?|$)/ },
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      '/api': { target: serverUrl, ws: true, changeOrigin: false },
      '/functions': serverUrl,
      '/dev': serverUrl,
      // The sandbox payment checkout, offered on the address the browser uses (the dev server's).
      '/sandbox': serverUrl,
    },
  },
}));
