import { ResponseError, type Session } from '@ory/client-fetch';
import type { Browser } from './ory.js';
import { csrfTokenOf, explained, identityApi, newBrowser, nodeNamed } from './ory.js';
import { createPasswordIdentity, totpCode } from './identities.js';

/**
 * Signs in with a password through the browser login flow (JSON mode). Returns the session, or, for an identity with
 * a second factor, the 422 `browser_location_change_required` body pointing at the aal2 step
 * (docs/kratos-compatibility.md#the-second-factor-step).
 */
export async function loginWithPassword(
  browser: Browser,
  email: string,
  password: string,
): Promise<{ session?: Session; redirectBrowserTo?: string }> {
  const flow = await explained(browser.frontend.createBrowserLoginFlow({}));
  const submit = browser.frontend.updateLoginFlow({
    flow: flow.id,
    updateLoginFlowBody: { method: 'password', identifier: email, password, csrf_token: csrfTokenOf(flow) },
  });
  try {
    return { session: (await submit).session };
  } catch (error) {
    if (error instanceof ResponseError && error.response.status === 422) {
      const body = (await error.response.clone().json()) as { redirect_browser_to: string };
      return { redirectBrowserTo: body.redirect_browser_to };
    }
    return explained(Promise.reject(error));
  }
}

/** Completes the aal2 step with a TOTP code for `secret`. */
export async function loginSecondFactor(browser: Browser, secret: string, offsetSteps = 0) {
  const flow = await explained(browser.frontend.createBrowserLoginFlow({ aal: 'aal2' }));
  return explained(
    browser.frontend.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: {
        method: 'totp',
        totp_code: await totpCode(secret, offsetSteps),
        csrf_token: csrfTokenOf(flow),
      },
    }),
  );
}

/** Enrols an authenticator app in settings and returns its secret (read from the secret key text node). */
export async function enrolTotp(browser: Browser, offsetSteps = 0): Promise<string> {
  const flow = await explained(browser.frontend.createBrowserSettingsFlow({}));
  const secretNode =
    nodeNamed(flow, 'totp_secret_key') ?? flow.ui.nodes.find((n: any) => n.attributes?.id === 'totp_secret_key');
  const secret = String(secretNode.attributes.text.text);
  await explained(
    browser.frontend.updateSettingsFlow({
      flow: flow.id,
      updateSettingsFlowBody: {
        method: 'totp',
        totp_code: await totpCode(secret, offsetSteps),
        csrf_token: csrfTokenOf(flow),
      },
    }),
  );
  return secret;
}

/** Generates and confirms backup codes in settings and returns them. */
export async function enrolLookupSecrets(browser: Browser): Promise<string[]> {
  const flow = await explained(browser.frontend.createBrowserSettingsFlow({}));
  const generated = await explained(
    browser.frontend.updateSettingsFlow({
      flow: flow.id,
      updateSettingsFlowBody: {
        method: 'lookup_secret',
        lookup_secret_regenerate: true,
        csrf_token: csrfTokenOf(flow),
      },
    }),
  );
  const codesNode = generated.ui.nodes.find((n: any) => n.attributes?.id === 'lookup_secret_codes') as any;
  const codes = (codesNode.attributes.text.context.secrets as { text: string }[]).map((s) => s.text);
  await explained(
    browser.frontend.updateSettingsFlow({
      flow: flow.id,
      updateSettingsFlowBody: {
        method: 'lookup_secret',
        lookup_secret_confirm: true,
        csrf_token: csrfTokenOf(generated),
      },
    }),
  );
  return codes;
}

/** One password attempt in a fresh login flow; the raw client promise, for tests that expect a refusal. */
export async function attemptLogin(browser: Browser, email: string, password: string) {
  const flow = await explained(browser.frontend.createBrowserLoginFlow({}));
  return browser.frontend.updateLoginFlow({
    flow: flow.id,
    updateLoginFlowBody: { method: 'password', identifier: email, password, csrf_token: csrfTokenOf(flow) },
  });
}

/** A new person with a password, signed in with it in a new browser of `portal`. */
export async function signedInPerson(portal: { publicUrl: string; adminUrl: string }) {
  const user = await createPasswordIdentity(identityApi(portal.adminUrl));
  const browser = newBrowser(portal.publicUrl);
  await loginWithPassword(browser, user.email, user.password);
  return { user, browser };
}
