import { describe, expect, it } from 'vitest';
import type { PortalUser } from '../api/users-api';
import { longDate, searchUsers, sortUsers } from './sorting';

const user = (first: string, email: string, admin: boolean, created: string): PortalUser => ({
  id: email,
  schema_id: 'default',
  state: 'active',
  traits: { email, name: { first, last: 'Test' } },
  created_at: created,
  credentials: [],
  verified: true,
  permissions: [],
  userType: admin ? { id: 'administrator', label: 'Beheerder' } : { id: 'analyst', label: 'Medewerker' },
});
const users = [
  user('bram', 'b@x.nl', false, '2026-01-02T00:00:00Z'),
  user('Anna', 'z@x.nl', false, '2026-03-01T00:00:00Z'),
  user('Zoë', 'a@x.nl', true, '2025-12-01T00:00:00Z'),
];

describe('overview sorting and search', () => {
  it('puts administrators first by default, then by name', () => {
    expect(sortUsers(users, 'type').map((u) => u.traits.name.first)).toEqual(['Zoë', 'Anna', 'bram']);
  });
  it('sorts by name case-insensitively, by e-mail and newest account first', () => {
    expect(sortUsers(users, 'name').map((u) => u.traits.name.first)).toEqual(['Anna', 'bram', 'Zoë']);
    expect(sortUsers(users, 'email').map((u) => u.traits.email)).toEqual(['a@x.nl', 'b@x.nl', 'z@x.nl']);
    expect(sortUsers(users, 'created').map((u) => u.traits.name.first)).toEqual(['Anna', 'bram', 'Zoë']);
  });
  it('searches name or e-mail case-insensitively', () => {
    expect(searchUsers(users, 'ANNA').map((u) => u.traits.name.first)).toEqual(['Anna']);
    expect(searchUsers(users, 'b@X').map((u) => u.traits.name.first)).toEqual(['bram']);
    expect(searchUsers(users, '  ')).toHaveLength(3);
  });
  it('writes dates in Dutch long format', () => {
    expect(longDate('2026-03-01T12:00:00Z')).toBe('1 maart 2026');
  });
});
