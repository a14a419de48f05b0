#!/usr/bin/env node
// After `vite build`, two checks that fail the build:
// - the JavaScript a console's first page load needs (its entry chunk and the chunks the entry imports
//   statically; lazy routes excluded), gzipped, stays within the budget;
// - nothing of the operator surface ships to customers: no file of the product console's build names
//   the control plane's proxy prefix or its tenant routes.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_KB = 300;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
let over = false;
for (const name of ['product-console', 'operator-console']) {
  const dir = path.join(root, 'dist', 'web', name);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, '.vite', 'manifest.json'), 'utf8'));
  const initial = new Set();
  const visit = (key) => {
    if (initial.has(key)) return;
    initial.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  const bytes = [...initial].reduce(
    (sum, key) => sum + zlib.gzipSync(fs.readFileSync(path.join(dir, manifest[key].file))).length,
    0,
  );
  const kb = (bytes / 1024).toFixed(1);
  console.log(`${name}: initial JavaScript ${kb} KB gzipped (${initial.size} chunks; budget ${BUDGET_KB} KB)`);
  if (bytes > BUDGET_KB * 1024) over = true;
}
const OPERATOR_MARKERS = ['/api/control-plane', '/v1/tenants'];
const productDir = path.join(root, 'dist', 'web', 'product-console');
const leaks = fs
  .readdirSync(productDir, { recursive: true })
  .filter((file) => /\.(js|html|map)$/.test(file))
  .flatMap((file) => {
    const text = fs.readFileSync(path.join(productDir, file), 'utf8');
    return OPERATOR_MARKERS.filter((marker) => text.includes(marker)).map((marker) => `${file}: ${marker}`);
  });
if (leaks.length > 0) {
  console.error(`the product console's build contains operator routes: ${leaks.join(', ')}`);
  process.exit(1);
}
if (over) {
  console.error(
    `a console's initial JavaScript is over ${BUDGET_KB} KB gzipped: lazy-load what the first view does not need`,
  );
  process.exit(1);
}
