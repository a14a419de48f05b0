import fs from 'node:fs';
import path from 'node:path';
import { Fleet, registerDaemons, sendBatches } from '@agentwatch/bench';

export interface SimulateArgs {
  daemons: string;
  batch: string;
  events: string;
  seed: string;
  gzip?: boolean;
  eventIds?: boolean;
  api: string;
  token?: string;
  concurrency: string;
  start?: string;
  print?: boolean;
}

// `npm start` keeps the development organization's deploy token here.
const devToken = () => {
  const file = path.join(process.cwd(), '.local', 'dev-org.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).deploy_token?.token : undefined;
};

/** `agentwatch simulate`: a daemon fleet against a running cloud API (or its batches as NDJSON with --print). */
export async function simulate(args: SimulateArgs): Promise<void> {
  const fleet = new Fleet({
    daemons: Number(args.daemons),
    batch: Number(args.batch),
    events: Number(args.events),
    seed: Number(args.seed),
    organizations: 1,
    eventIds: args.eventIds ?? false,
    startMs: args.start ? Date.parse(args.start) : Date.now() - 3_600_000,
  });
  if (args.print) {
    for (const batch of fleet.batches()) process.stdout.write(`${JSON.stringify(batch)}\n`);
    return;
  }
  const token = args.token ?? process.env.AGENTWATCH_DEPLOY_TOKEN ?? devToken();
  if (!token) throw new Error('no deploy token: pass --token, set AGENTWATCH_DEPLOY_TOKEN, or run npm start once');
  const tokens = await registerDaemons(args.api, fleet.daemons, [token]);
  const sent = await sendBatches(fleet.batches(), {
    apiUrl: args.api,
    tokens,
    concurrency: Number(args.concurrency),
    gzip: args.gzip,
  });
  const rate = Math.round(sent.accepted / (sent.elapsedMs / 1000));
  console.log(
    `${fleet.daemons.length} daemons: ${sent.accepted} items accepted, ${sent.failed} refused in ${(sent.elapsedMs / 1000).toFixed(1)}s (${rate} items/s); HTTP ${JSON.stringify(sent.statuses)}`,
  );
  if (sent.failed > 0) process.exitCode = 1;
}
