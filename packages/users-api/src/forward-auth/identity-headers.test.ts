import { describe, expect, it } from 'vitest';
import { headerValue } from './identity-headers.js';

describe('headerValue', () => {
  it('keeps printable ASCII as it is, so ordinary names and addresses stay readable', () => {
    expect(headerValue('Anna de Vries')).toBe('Anna de Vries');
    expect(headerValue('a.b+c@voorbeeldstad.nl')).toBe('a.b+c@voorbeeldstad.nl');
  });

  it('percent-encodes everything else as UTF-8, and % itself, so decodeURIComponent gives the text back', () => {
    for (const text of ['Zoë Ñúñez', 'Jan 100% zeker', '李 小龙', 'emoji 🚲', 'tab\there', ' rand ']) {
      const value = headerValue(text);
      expect(value).toMatch(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/);
      expect(decodeURIComponent(value)).toBe(text);
    }
    expect(headerValue('Zoë')).toBe('Zo%C3%AB');
  });

  it('never lets a CR or LF end the header', () => {
    const value = headerValue('Anna\r\nX-Portaal-User-Id: iemand-anders\r\n');
    expect(value).not.toMatch(/[\r\n]/);
    expect(value).toBe('Anna%0D%0AX-Portaal-User-Id: iemand-anders%0D%0A');
  });

  it('survives a lone surrogate (as the replacement character) instead of throwing', () => {
    expect(headerValue('a\ud800b')).toBe('a%EF%BF%BDb');
  });
});
