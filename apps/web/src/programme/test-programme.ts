import { whoamiOf } from '../test-users-api';

// What the tests of 'Programmabeheer' share.

/** A programme administrator who belongs to no organisation, signed in with her second factor. */
export const PROGRAMME_ADMINISTRATOR = whoamiOf({
  identity: {
    id: 'pim',
    traits: { email: 'pim@programma.nl', name: { first: 'Pim', last: 'Programma' } },
    credentials: ['password', 'totp'],
  },
  activeOrg: null,
  isAdmin: false,
  organisations: [],
  isProgrammeAdmin: true,
});

/** A refusal of the Users API in its envelope. */
export const refusal = (status: number, id: string, message: string, reason = 'refused') => ({
  status,
  body: { error: { code: status, id, reason, message } },
});
