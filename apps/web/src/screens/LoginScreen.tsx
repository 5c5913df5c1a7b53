import { useSecondFactorReason } from '../organisations/second-factor-reason';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { LoginFlow } from '@ory/client-fetch';
import { forgetCachedAnswers } from '../api/cached-answers';
import { usePortalConfig } from '../api/portal-config';
import { secondFactorGate, secondFactorGateBackTo, usersApi, type CurrentUser } from '../api/users-api';
import { FlowForm } from '../flows/FlowForm';
import { portalPathOf } from '../flows/flow-errors';
import { useSelfServiceFlow } from '../flows/use-flow';
import type { FlowUi, FlowValues } from '../flows/ui-types';
import { ErrorAlert } from '../components/ErrorAlert';
import { usePageTitle } from '../layout/use-page-title';
import { useToast } from '../components/Toasts';
import { RestartNotice } from '../components/RestartNotice';
import { serviceSignInPath, takeKeptReturnTo } from '../layout/return-to';
import { forgetIdleSignOut, idleSignOut, justSignedOut } from '../sessions/idle-sign-out';
import { Loading } from '../components/Loading';
import { BUSY } from '../components/SupportContact';
import { usePageLoader } from '../layout/load-page';

const REDIRECT_DELAY_MS = 1_000;
// The connection problem comes with a support mailbox: the alert adds it (or the helpdesk, without an address).
const CONNECTION_PROBLEM = 'Kon geen verbinding maken met de gebruikers API. Probeer het later opnieuw.';
/** An answer the flow error handler does not know (a 500): the sign-in did not work, through no fault of the person. */
const SIGN_IN_FAILED =
  'Inloggen is nu niet gelukt door een fout in het portaal. Probeer het over een paar minuten opnieuw.';
const PROBLEM_TEXTS = { unreachable: CONNECTION_PROBLEM, busy: BUSY, failed: SIGN_IN_FAILED };

/**
 * Where a signed-in person goes: enrolment or the code step when still needed, the flow's return_to (which the
 * identity provider accepted from its allow-list; another site as a full address), else the dashboard (admin path,
 * administrators) or /permissies.
 */
function destination(flow: LoginFlow, adminPath: boolean, user: CurrentUser | undefined): string {
  const gate = user && gateOnTheWay(user, flow.return_to);
  if (gate) return gate;
  if (flow.return_to) {
    const target = new URL(flow.return_to, window.location.origin);
    // The OpenID Connect provider's interaction is the server's, not a screen of this app: a full page load.
    if (target.origin === window.location.origin && !target.pathname.startsWith('/oidc/'))
      return `${target.pathname}${target.search}${target.hash}`;
    if (target.protocol === 'https:' || target.protocol === 'http:') return target.toString();
  }
  return adminPath && user?.isAdmin ? '/' : '/permissies';
}

/**
 * The second-factor gate, keeping the way on to a data service: a person who links an app first is offered to go
 * on to the service afterwards (TwoFactorScreen.tsx); a second step or a confirmation with the passkey returns there.
 */
function gateOnTheWay(user: CurrentUser, returnTo: string | undefined): string | undefined {
  const service = serviceSignInPath(returnTo);
  if (!service) return secondFactorGate(user);
  const gate = secondFactorGateBackTo(user, service);
  return gate === '/settings/2fa-app' ? `${gate}?verder=${encodeURIComponent(service)}` : gate;
}

const isElsewhere = (to: string) => /^https?:\/\//.test(to);

export default function LoginScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const loadPage = usePageLoader();
  const location = useLocation();
  const toast = useToast();
  const config = usePortalConfig();
  const [done, setDone] = useState(false);
  const adminPath = location.pathname.includes('admin');
  const aal = params.get('aal') ?? undefined;
  const refresh = params.get('refresh') === 'true';
  // The second-factor gate's way for a person whose only strong factor is a passkey (api/users-api.ts): confirm
  // the session with it. The password would not meet the policy, so only the passkey is offered.
  const passkeyOnly = refresh && params.get('passkey') === '1';
  const returnTo = params.get('return_to') ?? undefined;
  const [idleMinutes] = useState(idleSignOut);
  const [signedOut] = useState(justSignedOut);
  useEffect(forgetIdleSignOut, []);
  // The field that gets the focus once it is on screen: the e-mail address right after signing out, the code when
  // the second step follows the password (the button that was pressed is gone then; WCAG 2.4.3).
  const [focusField, setFocusField] = useState<string | undefined>(signedOut ? 'identifier' : undefined);

  const {
    flow,
    problem,
    submit: send,
  } = useSelfServiceFlow('login', {
    create: () => ({ aal, refresh, returnTo: returnTo ?? takeKeptReturnTo() }),
    // The existing-session rules: a session without its second factor goes to enrolment or to the aal2 step.
    before:
      aal || refresh
        ? undefined
        : async () => {
            const user = await usersApi<CurrentUser>('/users/whoami').catch(() => undefined);
            return user && gateOnTheWay(user, returnTo);
          },
    onSubmitError: async ({ status, body }) => {
      if (status === 422 && typeof body.redirect_browser_to === 'string') {
        await forgetCachedAnswers();
        // A passkey is aal1 to the provider, which then asks for the code too (as Kratos does); the portal's policy
        // takes the passkey as the second factor (docs/organisations.md), so the person is signed in already.
        const user = await usersApi<CurrentUser>('/users/whoami').catch(() => undefined);
        if (user?.secondFactorMet && flowRef.current) {
          signedIn(flowRef.current, user);
          return true;
        }
        // The second factor follows: an aal2 flow for the same return_to, on the administrator path if this was one.
        setFocusField('totp_code');
        const next = portalPathOf(body.redirect_browser_to);
        navigate(adminPath ? next.replace(/^\/login(?=[?#]|$)/, '/admin-login') : next, { replace: true });
        return true;
      }
      if (status !== 401) return false;
      toast({ title: 'Je kan momenteel niet inloggen', variant: 'error' });
      return true;
    },
  });

  /** Says so and goes on after a moment: to the flow's return_to, enrolment, the dashboard or /permissies. */
  function signedIn(on: LoginFlow, user: CurrentUser | undefined) {
    setDone(true);
    const to = destination(on, adminPath, user);
    window.setTimeout(() => (isElsewhere(to) ? loadPage(to) : navigate(to, { replace: true })), REDIRECT_DELAY_MS);
  }

  async function submit(values: FlowValues) {
    if (!flow || (await send(values)).kind !== 'done') return;
    setDone(true);
    await forgetCachedAnswers();
    signedIn(flow, await usersApi<CurrentUser>('/users/whoami').catch(() => undefined));
  }

  const flowRef = useRef(flow);
  flowRef.current = flow;

  // One `ui` per flow: the form starts over on a new one, so a fresh object on every render would wipe what was typed.
  const ui = useMemo(() => flow && relabel(flow.ui as unknown as FlowUi, passkeyOnly), [flow, passkeyOnly]);
  const secondFactor = flow?.requested_aal === 'aal2';
  // Sent here by the sidebar layout after joining an organisation that asks for it: why (second-factor-reason.ts).
  const reason = useSecondFactorReason();
  const securityKey = ui?.nodes.some((node) => node.group === 'webauthn' && node.attributes.type === 'button');
  const appCode = ui?.nodes.some((node) => node.group === 'totp');
  // A refresh confirms the session's own account, whose address the provider keeps in a hidden field: say whose.
  const account = refresh
    ? ui?.nodes.find((node) => node.attributes.name === 'identifier' && node.attributes.type === 'hidden')?.attributes
        .value
    : undefined;
  usePageTitle('Inloggen', secondFactor && 'tweede stap');

  useEffect(() => {
    if (!ui || !focusField) return;
    const field = document.querySelector<HTMLElement>(`#inhoud input[name="${focusField}"]`);
    if (!field) return;
    field.focus();
    setFocusField(undefined);
  }, [ui, focusField]);

  return (
    <main className="dvp-main dvp-main--centred" id="inhoud">
      <h1 className="utrecht-heading-1">Welkom</h1>
      {!secondFactor && (
        <p className="utrecht-paragraph">
          {adminPath
            ? 'Hier kunt u inloggen voor het Administrator dashboard.'
            : 'Log in om de datavoorzieningen van je gemeente te bekijken en te gebruiken.'}
        </p>
      )}
      {typeof account === 'string' && account !== '' && !secondFactor && (
        <p className="utrecht-paragraph">
          Je bent ingelogd als <strong>{account}</strong>.
        </p>
      )}
      {passkeyOnly && !secondFactor && (
        <p className="utrecht-paragraph">
          Je organisatie vraagt om tweestapsverificatie. Bevestig met je passkey dat jij het bent om verder te gaan.
        </p>
      )}
      {secondFactor && reason && (
        <div className="utrecht-alert utrecht-alert--info">
          <p className="utrecht-paragraph">{reason} Bevestig daarom dat jij het bent met je tweede stap.</p>
        </div>
      )}
      {secondFactor && (
        <>
          {(appCode || !securityKey) && (
            <p className="utrecht-paragraph">
              Open de authentiatie app op uw telefoon of tablet en voer de verificatiecode in.
            </p>
          )}
          {securityKey && (
            <p className="utrecht-paragraph">
              {appCode ? 'Of gebruik je beveiligingssleutel: ' : 'Gebruik je beveiligingssleutel: '}
              kies &lsquo;Gebruik je beveiligingssleutel&rsquo; en volg de stappen van je browser.
            </p>
          )}
          <p className="utrecht-paragraph">
            Ben je de toegang tot je authenticator-app en je back-upcodes kwijt? Vraag dan de beheerder van je gemeente
            om een nieuw account.
          </p>
        </>
      )}
      {problem && <ErrorAlert text={PROBLEM_TEXTS[problem.cause]} support focus />}
      {done && (
        <div className="utrecht-alert utrecht-alert--ok" role="status">
          <p className="utrecht-paragraph">Je bent ingelogd. Even geduld…</p>
        </div>
      )}
      {!done && <RestartNotice />}
      {signedOut && !idleMinutes && !done && (
        <div className="utrecht-alert utrecht-alert--ok" role="status">
          <p className="utrecht-paragraph">Je bent uitgelogd.</p>
        </div>
      )}
      {idleMinutes && !done && (
        <div className="utrecht-alert utrecht-alert--warning" role="status">
          <p className="utrecht-paragraph">
            Je bent automatisch uitgelogd, omdat je {idleMinutes === 1 ? '1 minuut' : `${idleMinutes} minuten`} niets
            hebt gedaan. Log opnieuw in om verder te gaan.
          </p>
        </div>
      )}
      {ui && !done && <FlowForm ui={ui} onSubmit={submit} />}
      {!flow && !problem && <Loading />}
      {!done && (
        <nav aria-label="Hulp bij inloggen" className="dvp-links">
          {aal || refresh ? (
            <Link className="utrecht-link" to="/uitloggen">
              Uitloggen
            </Link>
          ) : (
            <>
              <Link className="utrecht-link" to="/verification">
                Account verifiëren
              </Link>
              <Link className="utrecht-link" to="/recovery">
                Wachtwoord vergeten
              </Link>
              {config.data?.registrationEnabled && (
                <Link className="utrecht-link" to="/registration">
                  Account maken
                </Link>
              )}
            </>
          )}
        </nav>
      )}
    </main>
  );
}

const KEY_GROUPS = new Set(['passkey', 'webauthn']);
const CONFIRM_WITH_PASSWORD = 1010003;

/**
 * The second-factor submit reads 'Log in'; everything else keeps the provider's labels. The passkey and security-key
 * buttons come after the password and code forms (the provider may put them between the e-mail address and the
 * password), so that the fields stay together in the tab order. `passkeyOnly` leaves the password out, and the
 * provider's 'confirm with your password' (the screen says to confirm with the passkey).
 */
function relabel(ui: FlowUi, passkeyOnly: boolean): FlowUi {
  const ordered = [
    ...ui.nodes.filter((node) => !KEY_GROUPS.has(node.group) && !(passkeyOnly && node.group === 'password')),
    ...ui.nodes.filter((node) => KEY_GROUPS.has(node.group)),
  ];
  return {
    ...ui,
    messages: passkeyOnly ? ui.messages?.filter((message) => message.id !== CONFIRM_WITH_PASSWORD) : ui.messages,
    nodes: ordered.map((node) =>
      node.group === 'totp' && node.attributes.type === 'submit'
        ? { ...node, meta: { label: { id: 0, text: 'Log in', type: 'info' } } }
        : node,
    ),
  };
}
