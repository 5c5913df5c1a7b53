import type { CDPSession, Page } from 'playwright-core';

/**
 * Chromium's virtual WebAuthn authenticator on a page, over the DevTools protocol (`WebAuthn` domain): the browser
 * journeys create and use real passkeys and security keys with it, and read the keys' signature counters.
 */
export interface VirtualAuthenticator {
  readonly id: string;
  /** The keys it holds, with their counters. */
  credentials(): Promise<VirtualCredential[]>;
  /** Whether the next ceremonies verify the user (a PIN or fingerprint that succeeds or fails). */
  setUserVerified(verified: boolean): Promise<void>;
  remove(): Promise<void>;
}

export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  userHandle?: string;
  signCount: number;
}

export interface VirtualAuthenticatorOptions {
  /** `internal` (a platform authenticator: a passkey) or `usb` (a security key). */
  transport?: 'internal' | 'usb' | 'nfc' | 'ble';
  /** Discoverable credentials (passkeys); true unless told. */
  residentKey?: boolean;
  /** Whether it can verify the user; true unless told. */
  userVerification?: boolean;
}

/** Adds a CTAP2 virtual authenticator to the page's browser; presence is confirmed without a touch. */
export async function addVirtualAuthenticator(
  page: Page,
  options: VirtualAuthenticatorOptions = {},
): Promise<VirtualAuthenticator> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const userVerification = options.userVerification ?? true;
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: options.transport ?? 'internal',
      hasResidentKey: options.residentKey ?? true,
      hasUserVerification: userVerification,
      isUserVerified: userVerification,
      automaticPresenceSimulation: true,
    },
  });
  return {
    id: authenticatorId,
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    setUserVerified: async (verified) => {
      await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: verified });
    },
    remove: async () => {
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
      await cdp.detach();
    },
  };
}
