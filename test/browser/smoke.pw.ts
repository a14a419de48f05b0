import { expect, test } from '@playwright/test';
import { stack } from './support';

test('sign in to both consoles', async ({ page }) => {
  await page.goto(stack.productConsole);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('analyst@example.com')).toBeVisible();
  await page.goto(stack.operatorConsole);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('alice@example.com')).toBeVisible();
});
