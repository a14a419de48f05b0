import path from 'node:path';
import { defineConfig } from '@playwright/test';

// The browser tests: Debian's Chromium driven by Playwright against the whole stack (five apps and both
// consoles as their own processes, stack.ts), one test at a time because they share that stack.
const root = path.resolve(__dirname, '..', '..');

export default defineConfig({
  testDir: __dirname,
  testMatch: '*.pw.ts',
  globalSetup: path.join(__dirname, 'stack.ts'),
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  forbidOnly: true,
  outputDir: path.join(root, '.local', 'playwright', 'results'),
  reporter: [
    ['list'],
    ['html', { outputFolder: path.join(root, '.local', 'playwright', 'report'), open: 'never' }],
    ['json', { outputFile: path.join(root, '.local', 'playwright', 'results.json') }],
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.PLAYWRIGHT_CHROMIUM ?? '/usr/bin/chromium',
      // As root in a sandboxed machine, and with no network beyond loopback: no background traffic.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
