import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './failure-throttle.js';

describe('clientAddressKey', () => {
  it('counts an IPv6 client by its /64, however the address is written', () => {
    const key = clientAddressKey('login', '2001:db8:1:2::1');
    expect(key).toBe('login:ip:2001:db8:1:2::/64');
    expect(clientAddressKey('login', '2001:0DB8:0001:0002:ffff::9')).toBe(key);
    expect(clientAddressKey('login', '2001:db8:1:3::1')).not.toBe(key);
  });

  it('counts an IPv4-mapped address as the IPv4 address', () => {
    expect(clientAddressKey('login', '::ffff:192.0.2.10')).toBe(clientAddressKey('login', '192.0.2.10'));
  });

  it('leaves out a port a proxy forwarded, which changes with every connection', () => {
    const ipv4 = clientAddressKey('login', '192.0.2.10');
    expect(clientAddressKey('login', '192.0.2.10:51234')).toBe(ipv4);
    expect(clientAddressKey('login', '192.0.2.10:443')).toBe(ipv4);
    const ipv6 = clientAddressKey('login', '2001:db8:1:2::1');
    expect(clientAddressKey('login', '[2001:db8:1:2::1]:51234')).toBe(ipv6);
    expect(clientAddressKey('login', '[2001:db8:1:2::1]')).toBe(ipv6);
  });

  it('keeps purposes apart', () => {
    expect(clientAddressKey('login', '192.0.2.10')).not.toBe(clientAddressKey('recovery_mail', '192.0.2.10'));
  });
});
