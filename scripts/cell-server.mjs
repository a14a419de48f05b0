#!/usr/bin/env node
// `node scripts/cell-server.mjs start|stop|status`: a second PostgreSQL server on this machine, the
// second cell of the local deployment and of the tests (`CELL_SERVER_PORT`, default 5433). It is
// initialised with the machine's own PostgreSQL installation (initdb, pg_ctl), keeps its data in
// .local/cell-server/ and accepts the same trust logins on 127.0.0.1 as the machine's first server.
// The project needs nothing else of it: the control plane creates its roles, databases and schema
// from its superuser URL (CONTROL_CELLS).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const home = path.join(root, '.local', 'cell-server');
const data = path.join(home, 'data');
const port = Number(process.env.CELL_SERVER_PORT ?? 5433);
const isRoot = process.getuid?.() === 0;
// PostgreSQL refuses to run as root: as root, the server belongs to the installation's postgres user.
const serverUser = 'postgres';

function binary(name) {
  const versions = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').sort() : [];
  for (const version of versions.reverse()) {
    const candidate = `/usr/lib/postgresql/${version}/bin/${name}`;
    if (fs.existsSync(candidate)) return candidate;
  }
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  fail(`${name} not found: install PostgreSQL's server package (Debian: postgresql)`);
}

function fail(message) {
  console.error(`[cell-server] ${message}`);
  process.exit(1);
}

function asServerUser(command, args) {
  const [cmd, argv] = isRoot ? ['runuser', ['-u', serverUser, '--', command, ...args]] : [command, args];
  return spawnSync(cmd, argv, { encoding: 'utf8' });
}

function portOpen() {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

function initialise() {
  if (fs.existsSync(path.join(data, 'PG_VERSION'))) return;
  fs.mkdirSync(data, { recursive: true });
  if (isRoot) {
    // The server user must reach its directory through the checkout.
    spawnSync('chown', ['-R', `${serverUser}:${serverUser}`, home]);
    for (let dir = home; dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const mode = fs.statSync(dir).mode;
      if ((mode & 0o001) === 0) fs.chmodSync(dir, mode | 0o001);
    }
  }
  const init = asServerUser(binary('initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth-local=trust',
    '--auth-host=trust',
    '-E',
    'UTF8',
  ]);
  if (init.status !== 0) fail(`initdb failed:\n${init.stdout}${init.stderr}`);
}

async function start() {
  if (await portOpen()) {
    console.log(`[cell-server] already answering on 127.0.0.1:${port}`);
    return;
  }
  initialise();
  const started = asServerUser(binary('pg_ctl'), [
    '-D',
    data,
    '-l',
    path.join(home, 'server.log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${home} -c max_connections=200`,
    'start',
  ]);
  if (started.status !== 0) fail(`pg_ctl start failed (see ${path.join(home, 'server.log')}):\n${started.stderr}`);
  console.log(`[cell-server] PostgreSQL on 127.0.0.1:${port}, data in ${path.relative(root, data)}`);
}

function stop() {
  if (!fs.existsSync(path.join(data, 'postmaster.pid'))) return;
  asServerUser(binary('pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
  console.log('[cell-server] stopped');
}

const command = process.argv[2];
if (command === 'start') await start();
else if (command === 'stop') stop();
else if (command === 'status') process.exit((await portOpen()) ? 0 : 1);
else fail('usage: node scripts/cell-server.mjs start|stop|status');
