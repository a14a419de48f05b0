import { randomBytes } from 'node:crypto';
import { expect, Page, test } from '@playwright/test';
import { startTcpProxy } from '../../libs/testing/src/tcp-proxy';
import { screenshot, signIn, stack } from './support';

// Operators onboard a tenant through the operator console: one requests it, a second approves it (the
// requester cannot), the requester's journal view follows the flow live over the event stream, and a
// viewer sees the same pages with no write action.
const slug = `browser-${randomBytes(4).toString('hex')}`;
const tenantPage = () => `${stack.operatorConsole}/tenants/${slug}`;

const WRITE_ACTIONS = [
  'Request a tenant',
  'Approve',
  'Reject',
  'Cancel',
  'Resume',
  'Mint ingest token',
  'Deprovision',
  'Submit request',
];

async function journal(page: Page) {
  return page.getByRole('list', { name: 'Flow journal' });
}

test('an operator requests a tenant; a second operator approves it; the journal follows live; a viewer sees no write action; the tenant is deprovisioned with a second approval', async ({
  browser,
}, testInfo) => {
  // Alice reaches the console through a relay the test can cut, as a network drop would.
  const origin = new URL(stack.operatorConsole);
  const network = await startTcpProxy({ host: origin.hostname, port: Number(origin.port) });
  const alice = await (await browser.newContext()).newPage();
  await signIn(alice, `http://${network.address}`, 'alice@example.com', { role: 'operator' });
  await expect(alice.getByRole('heading', { level: 2, name: 'Tenants' })).toBeVisible();

  await alice.getByRole('link', { name: 'Request a tenant' }).click();
  await expect(alice.getByRole('heading', { level: 2, name: 'Request a tenant' })).toBeVisible();
  // The server's own refusal, shown as it answered: an owner email without @.
  await alice.getByLabel('Slug').fill(slug);
  await alice.getByLabel('Name').fill('Browser Corp');
  await alice.getByLabel('Owner email').fill('owner.example.com');
  await alice.getByLabel('Region').fill('local');
  await alice.getByRole('button', { name: 'Submit request' }).click();
  await expect(alice.getByText(/@/).first()).toBeVisible();
  await screenshot(alice, testInfo, 'operator-request');
  await alice.getByLabel('Owner email').fill('owner@browser.example');
  await alice.getByRole('button', { name: 'Submit request' }).click();

  await expect(alice).toHaveURL(new RegExp(`/tenants/${slug}$`));
  await expect(alice.getByRole('heading', { level: 2, name: `Tenant ${slug}` })).toBeVisible();
  await expect(alice.getByText('Another operator must approve this request.')).toBeVisible();
  await expect(alice.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  const aliceJournal = await journal(alice);
  await expect(aliceJournal).toContainText('TenantRequested');
  await expect(alice.getByRole('status', { name: 'Journal connection' })).toContainText('Live');
  await screenshot(alice, testInfo, 'operator-approval-card');

  // A viewer: the same pages, no write action anywhere.
  const vera = await (await browser.newContext()).newPage();
  await signIn(vera, stack.operatorConsole, 'vera@example.com', { role: 'viewer' });
  await expect(vera.getByRole('table', { name: 'Tenants' })).toContainText(slug);
  for (const name of WRITE_ACTIONS) await expect(vera.getByRole('button', { name })).toHaveCount(0);
  await expect(vera.getByRole('link', { name: 'Request a tenant' })).toHaveCount(0);
  await vera.getByRole('table', { name: 'Tenants' }).getByRole('link', { name: slug }).click();
  await expect(vera.getByRole('heading', { level: 2, name: `Tenant ${slug}` })).toBeVisible();
  await expect(await journal(vera)).toContainText('TenantRequested');
  for (const name of WRITE_ACTIONS) await expect(vera.getByRole('button', { name })).toHaveCount(0);

  // Alice's network drops: the journal says it is reconnecting, with its backoff.
  const connection = alice.getByRole('status', { name: 'Journal connection' });
  network.cut();
  await expect(connection).toContainText('Reconnecting');
  await screenshot(alice, testInfo, 'operator-journal-reconnecting');

  // Meanwhile a second operator approves, in a browser context of their own.
  const bob = await (await browser.newContext()).newPage();
  await signIn(bob, tenantPage(), 'bob@example.com', { role: 'operator' });
  await expect(bob).toHaveURL(tenantPage());
  await bob.getByRole('button', { name: 'Approve' }).click();
  await expect(bob.getByRole('list', { name: 'Flow journal' })).toContainText('FlowApproved');

  // Back online, Alice's page (never reloaded) resumes after the last event it had (Last-Event-ID):
  // the approval and the provisioning that follows arrive, and nothing twice.
  network.restore();
  await expect(connection).toContainText('Live', { timeout: 60_000 });
  await expect(aliceJournal).toContainText('FlowApproved');
  await expect(aliceJournal.getByText('TenantRequested', { exact: true })).toHaveCount(1);
  await expect(aliceJournal).toContainText('DatabaseMigrated', { timeout: 60_000 });
  await expect(alice.getByText('Another operator must approve this request.')).toHaveCount(0);
  await screenshot(alice, testInfo, 'operator-tenant-detail');

  // The ingest token: shown once.
  await alice.getByRole('button', { name: 'Mint ingest token' }).click();
  const token = alice.getByLabel('Ingest token', { exact: true });
  await expect(token).toBeVisible();
  const raw = (await token.textContent()) ?? '';
  expect(raw.length).toBeGreaterThan(20);
  await alice.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  expect(await alice.content()).not.toContain(raw);

  // Deprovisioning: a justification the spec refuses (under 20 characters), then one it accepts; the
  // offboard flow waits on the same approval card for the second operator.
  await alice.getByRole('button', { name: 'Deprovision' }).click();
  const dialog = alice.getByRole('dialog', { name: `Deprovision ${slug}` });
  await dialog.getByLabel('Justification').fill('too short');
  await dialog.getByRole('button', { name: 'Request deprovisioning' }).click();
  await expect(dialog.getByRole('alert')).toContainText('422');
  await dialog.getByLabel('Justification').fill('customer ended the pilot; data to be erased');
  await dialog.getByRole('button', { name: 'Request deprovisioning' }).click();
  await expect(alice.getByRole('heading', { name: 'Deprovisioning awaits approval' })).toBeVisible();
  await expect(alice.getByText('Another operator must approve this request.')).toBeVisible();
  await expect(alice.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(aliceJournal).toContainText('DeprovisionRequested');
  await bob.getByRole('button', { name: 'Approve' }).click();
  await expect(aliceJournal).toContainText('DatabaseDropped', { timeout: 60_000 });

  await alice.getByRole('link', { name: 'Tenants', exact: true }).click();
  await expect(alice.getByRole('table', { name: 'Tenants' })).toContainText(slug);
  await screenshot(alice, testInfo, 'operator-tenants');
  await network.close();
});
