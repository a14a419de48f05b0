import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, Page, TestInfo } from '@playwright/test';

/** What stack.ts started, from the environment it set. */
export const stack = {
  get productConsole() {
    return required('BROWSER_PRODUCT_CONSOLE');
  },
  get operatorConsole() {
    return required('BROWSER_OPERATOR_CONSOLE');
  },
  get cloudApi() {
    return required('BROWSER_CLOUD_API');
  },
  get orgName() {
    return required('BROWSER_ORG_NAME');
  },
  get deployToken() {
    return required('BROWSER_DEPLOY_TOKEN');
  },
};

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests through npm test (stack.ts sets it)`);
  return value;
}

/**
 * A main view: checked for accessibility, then its screenshot attached to the test report; with
 * CONSOLE_SCREENSHOTS set to a folder (docs/console for the README's tour), also written there.
 */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  // The pointer rests where the last click was: judge and show the view as it reads, not a hover state.
  await page.mouse.move(0, 0);
  await expectAccessible(page, name);
  const body = await page.screenshot({ fullPage: true, animations: 'disabled' });
  await testInfo.attach(name, { body, contentType: 'image/png' });
  const folder = process.env.CONSOLE_SCREENSHOTS;
  if (folder) {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `${name}.png`), body);
  }
}

export interface DaemonEvent {
  action_type: 'PROCESS_EXEC' | 'FILE_READ' | 'FILE_WRITE' | 'FILE_DELETE' | 'NETWORK_CONNECT';
  timestamp: string;
  tool_name: string;
  arguments: string[];
  session_id: string;
  agent_id: string;
  event_id: string;
}

/** What a daemon does: a session's lifecycle record, then its events, with the seeded deploy token. */
export async function ingestSession(
  session: { session_id: string; session_name: string; parent_id?: string },
  events: DaemonEvent[],
): Promise<void> {
  const post = async (route: string, body: unknown) => {
    const response = await fetch(`${stack.cloudApi}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.deployToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${route}: ${response.status} ${await response.text()}`);
  };
  await post('/v1/sessions/ingest', {
    ...session,
    state: 'active',
    timestamp: events[0].timestamp,
    model: 'claude-sonnet',
    platform: 'claude-code',
  });
  await post('/v1/events/ingest', { events });
}

/** A UUID of version 5's shape, as daemons send session ids. */
export function sessionId(): string {
  const hex = randomBytes(16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Polls the cloud API, as the daemon's deploy token, until `ready` holds for the answer. */
export async function waitForEvents(query: string, ready: (events: { id: string }[]) => boolean) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(`${stack.cloudApi}/v1/events?${query}`, {
      headers: { authorization: `Bearer ${stack.deployToken}` },
    });
    const { events } = (await response.json()) as { events: { id: string }[] };
    if (ready(events)) return events;
    if (Date.now() > deadline) throw new Error(`events matching ${query} did not arrive within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Opens a console and signs in through the development identity provider's page it redirects to. */
export async function signIn(page: Page, consoleUrl: string, user: string, choice?: { role?: string }) {
  await page.goto(consoleUrl);
  await signInOnProviderPage(page, user, choice);
}

/** On the development identity provider's sign-in page: picks the user (and role), signs in. */
export async function signInOnProviderPage(page: Page, user: string, choice?: { role?: string }) {
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  const offered = page.getByRole('radio', { name: user });
  if ((await offered.count()) > 0) await offered.check();
  else await page.getByLabel('Email').fill(user);
  if (choice?.role) await page.getByRole('radio', { name: choice.role }).check();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Signed in as').filter({ hasText: user }).waitFor();
}

/**
 * The view as a screen reader and a keyboard meet it: axe-core's WCAG 2.1 A and AA rules, with no
 * serious or critical violation allowed.
 */
export async function expectAccessible(page: Page, view: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const grave = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(
    grave.map(
      (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target).join(', ')})`,
    ),
    `accessibility of ${view}`,
  ).toEqual([]);
}
