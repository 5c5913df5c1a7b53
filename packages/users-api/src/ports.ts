import type { IncomingHttpHeaders } from 'node:http';
import type { RelationTuple, TupleQuery } from '@portaal/relations';
import type { AuditEntry } from './audit/audit-log.js';
import type { ReviewPort } from './reviews/access-review-store.js';
import type { ImportRowPort } from './imports/import-store.js';
import type { CataloguePort } from './catalogue/catalogue-writes.js';

export type IdentityState = 'active' | 'inactive';

export interface UserTraits {
  email: string;
  name: { first: string; last: string };
}

/** An identity as the Users API needs it: no secrets, the names of its configured credentials only. */
export interface UserIdentity {
  id: string;
  schema_id: string;
  state: IdentityState;
  traits: UserTraits;
  created_at: string;
  credentials: string[];
  /** Whether the e-mail address is verified; following the invitation link verifies it. */
  verified: boolean;
  /** The person's organisations as the Users API records them with the identity (docs/organisations.md). */
  organisationRecord: OrganisationRecord;
  /** When the lock after too many failed sign-ins ends; absent when not locked or not known (Ory Kratos has none). */
  lockedUntil?: string;
}

/**
 * Kept in the identity's `metadata_admin` (both backends have it): the home organisation, the organisation the
 * person chose to work in, and when each membership began (to find the oldest one when home is removed).
 */
export interface OrganisationRecord {
  home?: string;
  active?: string;
  joined?: Record<string, string>;
}

export interface CallerSession {
  sessionId: string;
  aal: 'aal0' | 'aal1' | 'aal2';
  /**
   * The names of the session's authentication methods (Kratos' `authentication_methods[].method`: `password`,
   * `totp`, `passkey`, `webauthn`, …): the portal's second-factor policy is decided from them
   * (users/second-factor.ts).
   */
  methods: string[];
  /** When the person last signed in (ISO 8601): `auth_time` of the OpenID Connect provider's ID tokens. */
  authenticatedAt?: string;
  identity: UserIdentity;
  /**
   * Until when (ms since the epoch) what is known about the session stays true while the database's change mark
   * stays (`Backend.changeMark`): its expiry or its next idle write. Absent where nothing may be kept (Ory Kratos).
   */
  unchangedUntil?: number;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  templateType: string;
}

/**
 * A security key or passkey as the person's settings list it, from the stored credential (Kratos' shape, never its
 * public key): `id` is the credential id in hex, as the settings flow's remove button carries it; `synced` is the
 * authenticator's backup state (a passkey kept in iCloud Keychain or Google Password Manager), absent when unknown.
 */
export interface KeyInfo {
  kind: 'security_key' | 'passkey';
  id: string;
  name: string;
  addedAt?: string;
  synced?: boolean;
}

/** The identity side of the Users API (embedded provider or Ory Kratos). */
export interface IdentityPort {
  /** The live session the request's headers present (cookie, `X-Session-Token` or `Authorization: Bearer`). */
  sessionOf(headers: IncomingHttpHeaders): Promise<CallerSession | undefined>;
  get(ids: string[]): Promise<UserIdentity[]>;
  findByEmail(email: string): Promise<UserIdentity | undefined>;
  create(traits: UserTraits, organisationRecord?: OrganisationRecord): Promise<UserIdentity>;
  /** Replaces the organisation record, keeping whatever else `metadata_admin` holds. */
  setOrganisationRecord(id: string, record: OrganisationRecord): Promise<void>;
  update(id: string, changes: { traits?: UserTraits; state?: IdentityState }): Promise<UserIdentity>;
  delete(id: string): Promise<void>;
  /** Removes the authenticator app, backup codes and security keys (users/second-factor.ts `RESET_CREDENTIALS`). */
  removeSecondFactors(id: string): Promise<void>;
  /** The person's security keys and passkeys (users/key-info.ts reads Kratos' stored shape). */
  keysOf(id: string): Promise<KeyInfo[]>;
  revokeSessions(id: string): Promise<void>;
  /**
   * Which of these sessions can be used now: not ended, expired or idle too long, of an active person. The OpenID
   * Connect provider ends the grants made from every other one (oidc/single-logout.ts).
   */
  liveSessions(sessionIds: string[]): Promise<Set<string>>;
  /** Ends one session: a person confirmed signing out at a data service (RP-initiated logout). */
  endSession(sessionId: string): Promise<void>;
  /**
   * Lifts the lock after too many failed sign-ins; false when the backend has no such lock (Ory Kratos). Not inside
   * `atomically`: the failure throttle writes on its own.
   */
  unlock(id: string): Promise<boolean>;
  /** A recovery link (invitations, the portal's recovery); not inside `atomically`, it writes on its own. */
  recoveryLink(id: string, lifespanMs: number): Promise<string>;
}

/** The relation side (embedded tuple store or Ory Keto). */
export interface RelationsPort {
  list(query: TupleQuery): Promise<RelationTuple[]>;
  patch(changes: { insert?: RelationTuple[]; delete?: TupleQuery[] }): Promise<void>;
}

export interface MailPort {
  send(mail: OutgoingMail): Promise<void>;
}

/** Where an administrative action's audit entry is written (audit/audit-log.ts): with the change, in `atomically`. */
export interface AuditPort {
  record(entry: AuditEntry): Promise<void>;
}

/** A member of an organisation with only what the overview sorts and searches by (`Backend.membersOf`). */
export interface MemberKey {
  id: string;
  traits: UserTraits;
  created_at: string;
  /** Holds the organisation's `admin` relation. */
  admin: boolean;
}

/**
 * What a member's status is decided on (users/user-status.ts) beside a sign-in lock, as `Backend.statusesOf` reads
 * it.
 */
export interface MemberStatus {
  state: IdentityState;
  organisationRecord: OrganisationRecord;
  /** Has an authenticator app, backup codes, a security key or a passkey (users/second-factor.ts `FACTOR_TYPES`). */
  anyFactor: boolean;
}

/** The ports, bound to one unit of work. */
export interface Ports {
  identities: IdentityPort;
  relations: RelationsPort;
  mail: MailPort;
  audit: AuditPort;
  /** Finished access reviews, written with the withdrawals they decided (reviews/access-review.ts). */
  reviews: ReviewPort;
  /** The outcome of an import's row, written with the change it records (imports/import-worker.ts). */
  importRows: ImportRowPort;
  /** Changes to the catalogue made in 'Programmabeheer', written with their audit entry (catalogue-writes.ts). */
  catalogue: CataloguePort;
}

/**
 * A backend runs work against the ports. The embedded one runs `atomically` in one database transaction: the
 * identity, the tuples, the mail and the audit entry commit together or not at all, and every multi-row write of
 * a port outside it opens a transaction of its own. The Ory one cannot: Kratos, Keto and the portal's database
 * share no transaction, so `compensates` tells callers to undo a half-done create themselves, and an audit entry is
 * written after the change it records (docs/architecture.md#the-audit-log).
 */
export interface Backend extends Ports {
  readonly compensates: boolean;
  /**
   * A mark that changes with anything in the database, sessions and tuples included (the embedded backend's
   * `Db.changeMark`): answers about a session read under one mark stay true while it stays. Absent on Ory.
   */
  changeMark?(): string | Promise<string>;
  /**
   * A mark that changes with people, their relation tuples and their invitations only, in any process: what an
   * organisation's member list is kept under. Absent on Ory.
   */
  peopleMark?(): Promise<string>;
  /**
   * The members of an organisation (an `issuer` or `access` tuple on it) in one read of only their ids, names,
   * addresses, creation times and administrator relation, in the order of their first membership tuple, as
   * `relations.list` gives them; of only the people `among`, when given. Absent on Ory, where the whole list is read
   * instead.
   */
  membersOf?(organisationId: string, among?: string[]): Promise<MemberKey[]>;
  /**
   * Whom the changes to people between two people marks were about, or undefined when that cannot be told: what
   * lets a kept member list re-read only them. Absent on Ory.
   */
  peopleChangedSince?(from: string, to: string): Promise<string[] | undefined>;
  /**
   * The state, organisation record and factors of an organisation's members (of only the people `among`, when
   * given), in one read: what a page of one status filters on beside the locks. Each change to them changes the
   * people mark. Absent on Ory, where the whole list is read instead.
   */
  statusesOf?(organisationId: string, among?: string[]): Promise<Map<string, MemberStatus>>;
  /**
   * The ends of the sign-in locks in force of these members, by id; the addresses are the members' own (their locks
   * are kept by address). A lock ends by the clock, so it is read at every request. Absent on Ory.
   */
  locksOf?(members: { id: string; email: string }[]): Promise<Map<string, string>>;
  /** The tuples of these subjects (no subject sets), in one read, ordered as `relations.list` orders them. */
  tuplesOf?(subjectIds: string[]): Promise<RelationTuple[]>;
  atomically<T>(work: (ports: Ports) => Promise<T>): Promise<T>;
}

/** Thrown by ports when a write conflicts with existing data (an e-mail address in use). */
export class ConflictError extends Error {}
