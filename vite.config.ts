import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { installableApp } from './src/web/pwa/pwa-plugin';

const serverUrl = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), installableApp()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries every page loads change less often than our code: their own chunks stay cached
        // across releases. The others go with the pages that import them: a catch-all vendor chunk
        // put every page's libraries in the first load (decision 021).
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
          ],
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
});
