import { describe, expect, it } from 'vitest';
import { deviceName, signedInAt } from './device-name';

describe('deviceName', () => {
  it('names the browser and the operating system in Dutch word order', () => {
    expect(deviceName('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
      'Firefox op Linux',
    );
    expect(
      deviceName(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ' +
          'Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome op Windows');
    expect(
      deviceName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like ' +
          'Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari op iOS');
  });

  it('says the device is unknown when the user agent is empty or says nothing known', () => {
    expect(deviceName('')).toBe('Onbekend apparaat');
    expect(deviceName(undefined)).toBe('Onbekend apparaat');
    expect(deviceName('curl-achtig/0.1')).toBe('Onbekend apparaat');
  });
});

describe('signedInAt', () => {
  it('writes the day in full and the time in 24 hours, Dutch time', () => {
    expect(signedInAt(new Date('2026-11-23T08:05:00Z'))).toBe('23 november 2026 om 09:05');
    expect(signedInAt(undefined)).toBeUndefined();
    expect(signedInAt('')).toBeUndefined();
  });
});
