import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import {
  createColleague,
  enterTotpCode,
  expectAccessible,
  signInAsAdministrator,
  signInWithPassword,
} from './support/pages.js';

const journey = useJourney();

describe('who may see what', () => {
  it('journey 10: a non-administrator is sent from the overview to /permissies; /api refuses their calls', async () => {
    await signInAsAdministrator(journey);
    const colleague = await createColleague(journey, { first: 'Mila' });
    const page = await journey.person('collega');
    await signInWithPassword(page, colleague.email, colleague.password);
    await enterTotpCode(page, colleague.secret!);
    await page.waitForURL((url) => url.pathname === '/permissies');
    expect(await page.getByRole('link', { name: 'Administratie dashboard' }).count()).toBe(0);

    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/permissies');
    await page.getByRole('heading', { name: 'Datavoorzieningen', level: 1 }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);

    const refused = await page.evaluate(async () => {
      const list = await fetch('/api/users', { headers: { accept: 'application/json' } });
      const create = await fetch('/api/users', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          traits: { email: 'indringer@voorbeeldstad.nl', name: { first: 'In', last: 'Dringer' } },
          permissions: [],
        }),
      });
      return [list.status, create.status, (await create.json()).error?.message];
    });
    expect(refused.slice(0, 2)).toEqual([403, 403]);
    expect(typeof refused[2]).toBe('string');
  });

  it('journey 12: the administrator path says so and ends on the overview after the code', async () => {
    const admin = await signInAsAdministrator(journey);
    await admin.page.getByRole('link', { name: 'Uitloggen' }).first().click();
    await admin.page.waitForURL((url) => url.pathname === '/login');

    const page = admin.page;
    await page.goto('/admin-login');
    await page.getByText('Hier kunt u inloggen voor het Administrator dashboard.').waitFor();
    await signInWithPassword(page, admin.email, admin.password, '/admin-login');
    await page.waitForURL((url) => url.pathname === '/admin-login' && url.searchParams.get('aal') === 'aal2');
    await expectAccessible(page, 'administrator second-factor step');
    await enterTotpCode(page, admin.secret, 1);
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Overzicht' }).waitFor();
  });
});
