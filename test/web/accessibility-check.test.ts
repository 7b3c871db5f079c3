import { describe, expect, it } from 'vitest';
import { aTenantWith } from '#test/support/auth.ts';
import { expectAccessible, useWebStack } from './support/web-stack.ts';

const web = useWebStack();

// The journeys' accessibility check must be able to fail: on a served page, under its Content-Security-Policy, and
// again on the same document after it changed (axe is evaluated once per document).
describe('expectAccessible', () => {
  it('passes the sign-in page, then names the rule and the element a change breaks', async () => {
    const tenant = await aTenantWith();
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expectAccessible(page);

    await page.evaluate(`{
      const image = document.createElement('img');
      image.id = 'unnamed-image';
      image.src = '/favicon.ico';
      document.querySelector('main').append(image);
    }`);
    const failure = await expectAccessible(page).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ actual: ['image-alt (critical): #unnamed-image'] });
  });
});
