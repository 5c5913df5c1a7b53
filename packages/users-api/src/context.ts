import type { AuditLog } from './audit/audit-log.js';
import type { LastSignIns } from './audit/last-sign-ins.js';
import type { CatalogueSource } from './catalogue/catalogue-source.js';
import type { Organisation } from './catalogue/catalogue.js';
import type { InvitationStore } from './invitations/invitation-store.js';
import type { MailThrottle } from './mail/mail-throttle.js';
import type { Backend } from './ports.js';
import type { AccessReviewStore } from './reviews/access-review-store.js';
import type { ImportStore } from './imports/import-store.js';
import type { Caller } from './users/caller.js';

export interface UsersApiOptions {
  publicUrl: URL;
  dashboardAllowlist: string[];
  supportEmail?: string;
  feedbackEmail?: string;
  accessibilityStatementUrl?: string;
  privacyStatementUrl?: string;
  registrationEnabled: boolean;
  invitationMs: number;
  recoveryMs: number;
  /**
   * The identity provider's idle timeout, for the portal's warning before it; absent when the provider has none
   * (Ory Kratos).
   */
  sessionIdleMs?: number;
  /**
   * The shared secret of Kratos' login web_hook (ORY_WEBHOOK_SECRET, only with IDENTITY_BACKEND=ory); without it the
   * hook's endpoint answers 404 (routes/kratos-hook-routes.ts).
   */
  kratosHookSecret?: string;
  /** The installation's own name and description in the header of every page (PORTAL_TITLE, PORTAL_DESCRIPTION). */
  sidebarTitle?: string;
  sidebarDescription?: string;
}

/** Counts attempts per key within a window; false once the limit is reached. */
export interface RateLimiter {
  allow(key: string, limit: number, windowMs: number): Promise<boolean>;
}

export interface ApiContext {
  backend: Backend;
  catalogue: CatalogueSource;
  audit: AuditLog;
  lastSignIns: LastSignIns;
  limiter: RateLimiter;
  /** The limits on mails to a person that administrators' requests send (mail/mail-throttle.ts). */
  mailThrottle: MailThrottle;
  invitations: InvitationStore;
  /** Finished access reviews, read by the routes; written through `Ports.reviews`. */
  reviews: AccessReviewStore;
  /** Imports of people from a file, read and led by the routes and the worker; rows settled through `Ports`. */
  imports: ImportStore;
  options: UsersApiOptions;
}

export interface AdminCaller extends Caller {
  activeOrg: Organisation;
}
