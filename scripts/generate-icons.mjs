// Writes the web app manifest's PNG icons (src/web/public/icons/) from src/web/public/favicon.svg, so the
// installed app wears the same mark as the tab: 192 and 512 px as drawn (rounded square, transparent
// corners), and a 512 px maskable one whose glyph sits inside the central 80 % safe zone on a full-bleed
// background, since launchers crop it to their own shape. Chromium (Debian's, through Playwright) renders
// the SVG; no image library is needed. Run once with `node scripts/generate-icons.mjs` after changing the favicon.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const publicDir = path.resolve(import.meta.dirname, '../src/web/public');
const favicon = fs.readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8');
const outDir = path.join(publicDir, 'icons');

const background = favicon.match(/<rect[^>]*fill="([^"]+)"/)?.[1];
const glyph = favicon.match(/<path[^>]*\/>/)?.[0];
if (!background || !glyph) throw new Error('favicon.svg must hold one <rect fill> (the background) and one <path/> (the glyph)');

// The favicon's 32-unit box with its glyph scaled to 62 % about the centre: inside the maskable safe zone.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${background}"/><g transform="translate(16 16) scale(0.62) translate(-16 -16)">${glyph}</g></svg>`;

const icons = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  { file: 'icon-maskable-512.png', size: 512, svg: maskable },
];

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  fs.mkdirSync(outDir, { recursive: true });
  for (const { file, size, svg } of icons) {
    await page.setViewportSize({ width: size, height: size });
    const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block}</style>${sized}`);
    await page.locator('svg').screenshot({ path: path.join(outDir, file), omitBackground: true });
    console.log(`wrote src/web/public/icons/${file} (${size}×${size})`);
  }
} finally {
  await browser.close();
}
