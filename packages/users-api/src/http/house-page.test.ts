import { describe, expect, it } from 'vitest';
import { errorPage, loggedOutPage } from '../oidc/oidc-pages.js';
import { refusalPage } from '../forward-auth/refusal-page.js';
import { brandOf, housePage } from './house-page.js';

const header = (page: string) => /<header>(.*)<\/header>/.exec(page)![1];

describe('the header of the pages the server renders', () => {
  it("names the programme when the installation sets no title, as the web app's header does", () => {
    expect(brandOf({})).toEqual({ title: 'Datavoorzieningen VNG', description: 'Datavoorziening VNG Realisatie' });
    expect(header(housePage('Geen toegang', '<p>x</p>', brandOf({})))).toBe(
      '<p class="titel">Datavoorzieningen VNG</p><p class="omschrijving">Datavoorziening VNG Realisatie</p>',
    );
  });

  it("names the installation's own title and description (PORTAL_TITLE, PORTAL_DESCRIPTION), escaped", () => {
    const brand = brandOf({ sidebarTitle: 'Data <Súdwest-Fryslân>', sidebarDescription: 'Samen & sterk' });
    const expected = '<p class="titel">Data &lt;Súdwest-Fryslân&gt;</p><p class="omschrijving">Samen &amp; sterk</p>';
    for (const page of [
      errorPage('invalid_client', brand),
      loggedOutPage(brand),
      refusalPage('Geen toegang.', new URL('https://portaal.example.nl'), brand),
    ])
      expect(header(page)).toBe(expected);
  });
});
