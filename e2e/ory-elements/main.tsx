// Ory's own React components (`@ory/elements-react`, unmodified, default theme) as the UI of the embedded provider,
// for the journey e2e/browser/ory-elements.test.ts. The provider sends browsers to these screens through its UI URLs
// (docs/kratos-compatibility.md#scope-and-version); the screens sit at Ory Elements' default locations (`/ui/…`) on
// the provider's own origin, so its cookies reach them. Flows are fetched with `@ory/client-fetch` as Ory's examples
// do: `?flow=<id>` is fetched, without it a browser flow is created in JSON, and the SDK's `handleFlowError` restarts
// an expired or unknown flow at `/self-service/<flow>/browser` or follows the provider's `redirect_browser_to`.
import '@ory/elements-react/theme/styles.css';
import {
  type ApiResponse,
  Configuration,
  FlowType,
  FrontendApi,
  handleFlowError,
  type Session,
} from '@ory/client-fetch';
import type { OryClientConfiguration } from '@ory/elements-react';
import { SessionProvider } from '@ory/elements-react/client';
import { Error as ErrorCard, Login, Recovery, Registration, Settings, Verification } from '@ory/elements-react/theme';
import { type ComponentProps, type ReactNode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

const sdkUrl = window.location.origin;

const frontend = new FrontendApi(
  new Configuration({ basePath: sdkUrl, credentials: 'include', headers: { Accept: 'application/json' } }),
);

const config: OryClientConfiguration = {
  sdk: { url: sdkUrl },
  project: {
    name: 'Ory Elements',
    registration_enabled: true,
    verification_enabled: true,
    recovery_enabled: true,
    login_ui_url: '/ui/login',
    registration_ui_url: '/ui/registration',
    recovery_ui_url: '/ui/recovery',
    verification_ui_url: '/ui/verification',
    settings_ui_url: '/ui/settings',
    error_ui_url: '/ui/error',
    default_redirect_url: '/ui/welcome',
  },
};

/** The SDK's model objects without their `undefined` keys, as Ory's examples hand flows to the components. */
function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUndefined) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .map(([key, entry]) => [key, withoutUndefined(entry)]),
  ) as T;
}

/**
 * The flow of `?flow=`, or a new browser flow; what Ory's client-side `use<Flow>Flow` hooks do. `T` is the flow type
 * of the component: Ory Elements brings its own, older copy of `@ory/client-fetch`, whose types describe the same JSON
 * with shorter enums.
 */
function useFlow<T>(
  type: FlowType,
  create: (params: URLSearchParams) => Promise<ApiResponse<{ id: string }>>,
  get: (id: string) => Promise<ApiResponse<{ id: string }>>,
): T | undefined {
  const [flow, setFlow] = useState<T>();
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const id = params.get('flow');
    const onError = handleFlowError({
      onValidationError: (body) => body,
      onRestartFlow: () => window.location.assign(`${sdkUrl}/self-service/${type}/browser?${params}`),
      onRedirect: (url) => window.location.assign(url),
    });
    (id ? get(id) : create(params))
      .then((answer) => answer.value())
      .then((value) => {
        setFlow(withoutUndefined(value) as T);
        window.history.replaceState(null, '', `?flow=${encodeURIComponent(value.id)}`);
      })
      .catch(onError);
  }, [type, create, get]);
  return flow;
}

const returnTo = (params: URLSearchParams) => params.get('return_to') ?? undefined;

const createLogin = (params: URLSearchParams) =>
  frontend.createBrowserLoginFlowRaw({
    refresh: params.get('refresh') === 'true',
    aal: params.get('aal') ?? undefined,
    returnTo: returnTo(params),
  });
const getLogin = (id: string) => frontend.getLoginFlowRaw({ id });
const createRegistration = (params: URLSearchParams) =>
  frontend.createBrowserRegistrationFlowRaw({ returnTo: returnTo(params) });
const getRegistration = (id: string) => frontend.getRegistrationFlowRaw({ id });
const createRecovery = (params: URLSearchParams) =>
  frontend.createBrowserRecoveryFlowRaw({ returnTo: returnTo(params) });
const getRecovery = (id: string) => frontend.getRecoveryFlowRaw({ id });
const createVerification = (params: URLSearchParams) =>
  frontend.createBrowserVerificationFlowRaw({ returnTo: returnTo(params) });
const getVerification = (id: string) => frontend.getVerificationFlowRaw({ id });
const createSettings = (params: URLSearchParams) =>
  frontend.createBrowserSettingsFlowRaw({ returnTo: returnTo(params) });
const getSettings = (id: string) => frontend.getSettingsFlowRaw({ id });

function LoginScreen() {
  const flow = useFlow<ComponentProps<typeof Login>['flow']>(FlowType.Login, createLogin, getLogin);
  return flow ? <Login flow={flow} config={config} /> : null;
}

function RegistrationScreen() {
  const flow = useFlow<ComponentProps<typeof Registration>['flow']>(
    FlowType.Registration,
    createRegistration,
    getRegistration,
  );
  return flow ? <Registration flow={flow} config={config} /> : null;
}

function RecoveryScreen() {
  const flow = useFlow<ComponentProps<typeof Recovery>['flow']>(FlowType.Recovery, createRecovery, getRecovery);
  return flow ? <Recovery flow={flow} config={config} /> : null;
}

function VerificationScreen() {
  const flow = useFlow<ComponentProps<typeof Verification>['flow']>(
    FlowType.Verification,
    createVerification,
    getVerification,
  );
  return flow ? <Verification flow={flow} config={config} /> : null;
}

function SettingsScreen() {
  const flow = useFlow<ComponentProps<typeof Settings>['flow']>(FlowType.Settings, createSettings, getSettings);
  return flow ? <Settings flow={flow} config={config} /> : null;
}

type ErrorOfElements = ComponentProps<typeof ErrorCard>['error'];

function ErrorScreen() {
  const [error, setError] = useState<ErrorOfElements>();
  useEffect(() => {
    const id = new URLSearchParams(window.location.search).get('id') ?? '';
    frontend.getFlowError({ id }).then((value) => setError(withoutUndefined(value) as ErrorOfElements));
  }, []);
  return error ? <ErrorCard error={error} config={config} /> : null;
}

/** The application behind the screens (`default_redirect_url`): who is signed in, and the way out. */
function WelcomeScreen() {
  const [session, setSession] = useState<Session | null>();
  const [logoutUrl, setLogoutUrl] = useState<string>();
  useEffect(() => {
    frontend
      .toSession()
      .then(async (current) => {
        setSession(current);
        setLogoutUrl((await frontend.createBrowserLogoutFlow()).logout_url);
      })
      .catch(() => setSession(null));
  }, []);
  if (session === undefined) return null;
  return (
    <main className="harness-welcome">
      <h1>Welcome</h1>
      {session ? (
        <>
          <p>
            Signed in as <strong>{String(session.identity?.traits.email)}</strong>
          </p>
          <p>
            <a href={config.project.settings_ui_url}>Account settings</a>
            {logoutUrl && <a href={logoutUrl}>Log out</a>}
          </p>
        </>
      ) : (
        <p>
          Not signed in. <a href={config.project.login_ui_url}>Sign in</a>
        </p>
      )}
    </main>
  );
}

const screens: Record<string, () => ReactNode> = {
  '/ui/login': LoginScreen,
  '/ui/registration': RegistrationScreen,
  '/ui/recovery': RecoveryScreen,
  '/ui/verification': VerificationScreen,
  '/ui/settings': SettingsScreen,
  '/ui/error': ErrorScreen,
  '/ui/welcome': WelcomeScreen,
};

const Screen = screens[window.location.pathname.replace(/\/$/, '')] ?? WelcomeScreen;

createRoot(document.getElementById('root')!).render(
  <SessionProvider baseUrl={sdkUrl}>
    <div className="harness-page">
      <Screen />
    </div>
  </SessionProvider>,
);
