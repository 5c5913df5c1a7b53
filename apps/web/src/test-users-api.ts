import type { PortalUser } from './api/users-api';

/**
 * The answer of GET /api/users/whoami in component tests: Bea, administrator of Gemeente Voorbeeldstad with two data
 * roles, signed in with her second factor; `overrides` replace whole fields.
 */
export const whoamiOf = (overrides: Record<string, unknown> = {}) => ({
  active: true,
  identity: {
    id: 'me',
    traits: { email: 'bea@voorbeeldstad.nl', name: { first: 'Bea', last: 'Beheerder' } },
    credentials: ['password', 'totp'],
  },
  permissions: [],
  activeOrg: {
    id: 'voorbeeldstad',
    label: 'Gemeente Voorbeeldstad',
    subdivisions: [
      { id: 'ruimte', label: 'Ruimte en wonen' },
      { id: 'financien', label: 'Financiën' },
    ],
  },
  isAdmin: true,
  authenticator_assurance_level: 'aal2',
  aal2Required: true,
  ...overrides,
});

// A stand-in for the Users API's list calls in component tests: GET /api/users a page at a time and GET
// /api/users.csv, answered from a list with the server's rules (packages/users-api/src/users/user-order.ts).

const collator = new Intl.Collator('nl', { sensitivity: 'base' });
const nameOf = (user: PortalUser) => `${user.traits.name.first} ${user.traits.name.last}`.trim();
const admin = (user: PortalUser) => Number(user.userType.id === 'administrator');
const ORDERS: Record<string, (a: PortalUser, b: PortalUser) => number> = {
  name: (a, b) => collator.compare(nameOf(a), nameOf(b)),
  email: (a, b) => collator.compare(a.traits.email, b.traits.email),
  type: (a, b) => admin(b) - admin(a) || collator.compare(nameOf(a), nameOf(b)),
  created: (a, b) => b.created_at.localeCompare(a.created_at),
  last_sign_in: (a, b) =>
    (b.lastSignInAt ?? '').localeCompare(a.lastSignInAt ?? '') || collator.compare(nameOf(a), nameOf(b)),
};

// The statuses as the server decides them (packages/users-api/src/users/user-status.ts).
const STATUSES: Record<string, (user: PortalUser) => boolean> = {
  invited: (user) => user.invitation !== undefined,
  blocked: (user) => !user.invitation && user.state === 'inactive',
  locked: (user) => !user.invitation && user.lockedUntil !== undefined,
  no_second_factor: (user) => !user.invitation && user.home !== false && (user.factors ?? []).length === 0,
  active: (user) => !user.invitation && user.state === 'active' && user.lockedUntil === undefined,
};

/** The list sorted, searched and of the status that the query of `url` asks. */
function shown(list: PortalUser[], url: URL): PortalUser[] {
  const wanted = (url.searchParams.get('q') ?? '').trim().toLocaleLowerCase('nl');
  const status = url.searchParams.get('status');
  return [...list]
    .sort(ORDERS[url.searchParams.get('sort') ?? 'type'])
    .filter(
      (user) =>
        nameOf(user).toLocaleLowerCase('nl').includes(wanted) ||
        user.traits.email.toLocaleLowerCase('nl').includes(wanted),
    )
    .filter((user) => !status || STATUSES[status]!(user));
}

/** The CSV file's rows in this stand-in: the names and address only, after a byte order mark. */
const csvOf = (users: PortalUser[]) => {
  const rows = users.map((u) => `${u.traits.name.first};${u.traits.name.last};${u.traits.email}\r\n`);
  return `\uFEFFVoornaam;Achternaam;E-mailadres\r\n${rows.join('')}`;
};

/** The answer to a GET of the user list or its CSV file, or undefined for any other request. */
export function usersApiAnswer(list: PortalUser[], url: URL, init?: RequestInit) {
  if (init?.method && init.method !== 'GET') return undefined;
  if (url.pathname === '/api/users.csv') return { status: 200, text: csvOf(shown(list, url)), type: 'text/csv' };
  if (url.pathname !== '/api/users') return undefined;
  if (!url.searchParams.has('page')) return { status: 200, body: list };
  const page = Number(url.searchParams.get('page'));
  const perPage = Number(url.searchParams.get('per_page') ?? 50);
  const found = shown(list, url);
  const items = found.slice((page - 1) * perPage, page * perPage);
  return { status: 200, body: { items, total: found.length, page, per_page: perPage } };
}
