import { describe, expect, it } from 'vitest';
import { homeOrganisationOf, membershipsOf, settledRecord } from './home-organisation.js';
import { readOrganisationRecord, withOrganisationRecord } from './organisation-record.js';

const member = (object: string, relation = 'issuer') => ({
  namespace: 'organizations',
  object,
  relation,
  subject_id: 'u1',
});

describe('the home organisation', () => {
  it('counts issuer and access tuples as memberships, not admin or data roles', () => {
    const tuples = [
      member('dego', 'admin'),
      member('voorbeeldstad'),
      member('dego', 'access'),
      { ...member('analist_dego'), namespace: 'subdivisions' },
    ];
    expect(membershipsOf(tuples)).toEqual(['voorbeeldstad', 'dego']);
  });

  it('stays the recorded organisation while the person is a member of it', () => {
    expect(homeOrganisationOf({ home: 'dego' }, ['voorbeeldstad', 'dego'])).toBe('dego');
  });

  it('moves to the oldest remaining membership when the person left their home', () => {
    const joined = { dego: '2026-03-01T00:00:00.000Z', achterberg: '2026-02-01T00:00:00.000Z' };
    expect(homeOrganisationOf({ home: 'voorbeeldstad', joined }, ['dego', 'achterberg'])).toBe('achterberg');
  });

  it('takes a membership from before join dates were kept as the oldest', () => {
    expect(homeOrganisationOf({ joined: { dego: '2026-03-01T00:00:00.000Z' } }, ['dego', 'zuid'])).toBe('zuid');
  });

  it('derives the home of an account that has none from its memberships', () => {
    expect(settledRecord({}, [member('voorbeeldstad')]).home).toBe('voorbeeldstad');
  });

  it('forgets an active organisation and join dates of organisations the person left', () => {
    const record = { home: 'voorbeeldstad', active: 'dego', joined: { dego: '2026-03-01T00:00:00.000Z' } };
    expect(settledRecord(record, [member('voorbeeldstad')])).toEqual({
      home: 'voorbeeldstad',
      active: undefined,
      joined: {},
    });
  });

  it('reads only recorded join dates, also for an organisation whose id is a name Object.prototype has', () => {
    expect(homeOrganisationOf({ joined: { dego: '2026-03-01T00:00:00.000Z' } }, ['constructor', 'dego'])).toBe(
      'constructor',
    );
    expect(homeOrganisationOf({}, ['toString', 'constructor'])).toBe('constructor');
  });
});

describe('the organisation record in metadata_admin', () => {
  it('keeps the other keys of metadata_admin when written', () => {
    const metadata = withOrganisationRecord({ imported_from: 'kratos', home_organisation: 'oud' }, { home: 'dego' });
    expect(metadata).toEqual({ imported_from: 'kratos', home_organisation: 'dego' });
    expect(readOrganisationRecord(metadata)).toEqual({ home: 'dego', active: undefined, joined: undefined });
  });

  it('reads anything malformed as an empty record', () => {
    expect(readOrganisationRecord('text')).toEqual({});
    expect(readOrganisationRecord({ home_organisation: 5, joined_organisations: { dego: 1 } })).toEqual({
      home: undefined,
      active: undefined,
      joined: {},
    });
  });
});
