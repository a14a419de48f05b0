#!/usr/bin/env node
// Where the time goes in V8 CPU profiles from `npm run bench -- --cpu-prof`: self time by package
// (node_modules/<pkg>, our dist/<lib>, node internals, GC) and the top functions.
// Usage: node scripts/bench/profile-summary.mjs bench/profiles/*.cpuprofile
import fs from 'node:fs';
import path from 'node:path';

function ownerOf(url) {
  if (!url) return '(native/GC/idle)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const ours = /dist\/((?:apps|libs)\/[^/]+)/.exec(url);
  if (ours) return ours[1];
  return url.startsWith('node:') ? 'node internals' : path.basename(url);
}

for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const owners = new Map();
  const functions = new Map();
  for (const [id, us] of self) {
    const { callFrame: f } = byId.get(id);
    if (f.functionName === '(idle)') continue;
    const owner = ownerOf(f.url);
    owners.set(owner, (owners.get(owner) ?? 0) + us);
    const key = `${f.functionName || '(anonymous)'} ${owner}:${f.lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const busy = [...owners.values()].reduce((a, b) => a + b, 0);
  const top = (map, n) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `  ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  console.log(`${path.basename(file)}: ${(busy / 1e6).toFixed(1)} s busy of ${(total / 1e6).toFixed(1)} s`);
  console.log(`by package:\n${top(owners, 12)}\ntop functions (self time):\n${top(functions, 15)}\n`);
}
