import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { brandOf, HOUSE_STYLE_SOURCE } from '../http/house-page.js';
import { refusalPage } from './refusal-page.js';

describe('refusalPage', () => {
  it('says it in Dutch, escaped, with the way to the services the person may use', () => {
    const page = refusalPage('Geen toegang <b>"hier"</b> & daar', new URL('https://portaal.example.nl'), brandOf({}));
    expect(page).toContain('<html lang="nl">');
    expect(page).toContain('<p>Geen toegang &lt;b&gt;&quot;hier&quot;&lt;/b&gt; &amp; daar</p>');
    expect(page).toContain('<a href="https://portaal.example.nl/permissies">Naar je datavoorzieningen</a>');
    expect(page).not.toMatch(/<script/);
    // The one style is the one the page's Content-Security-Policy allows by its hash.
    const style = /<style>([^<]*)<\/style>/.exec(page)![1]!;
    expect(`'sha256-${createHash('sha256').update(style).digest('base64')}'`).toBe(HOUSE_STYLE_SOURCE);
  });
});
