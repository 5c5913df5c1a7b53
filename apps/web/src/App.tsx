import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import LoginScreen from './screens/LoginScreen';
import { ToastProvider } from './components/Toasts';
import { PageFooter } from './layout/PageFooter';
import { PageHeader } from './layout/PageHeader';
import { Loading } from './components/Loading';
import { ErrorAlert } from './components/ErrorAlert';
import { usePageTitle } from './layout/use-page-title';

/** A lazily loaded screen that can be loaded ahead: the screen the browser opens on is, before the first render. */
interface LazyScreen {
  preload(): Promise<ComponentType>;
  /** The screen, once its code is there. */
  loaded(): ComponentType | undefined;
  Lazy: LazyExoticComponent<ComponentType>;
}

const RELOADED_AT = 'dvp-code-reload';
const RELOAD_GUARD_MS = 30_000;

/**
 * Loads the page again when a screen's code did not arrive: most often a new version of the portal went live while
 * the page was open, and its files have other names now. Not when that was tried a moment ago (no loop).
 */
function reloadOnce(): boolean {
  if (Date.now() - Number(sessionStorage.getItem(RELOADED_AT)) < RELOAD_GUARD_MS) return false;
  sessionStorage.setItem(RELOADED_AT, String(Date.now()));
  window.location.reload();
  return true;
}

/** In place of a screen whose code could not be loaded, even after loading the page again: why, and a way on. */
function CodeUnavailable() {
  usePageTitle('Pagina niet geladen');
  return (
    <main className="dvp-main" id="inhoud">
      <h1 className="utrecht-heading-1">Pagina niet geladen</h1>
      <ErrorAlert
        text="Deze pagina kon niet worden geladen. Controleer je internetverbinding en probeer het opnieuw."
        support
        focus
      />
      <button
        type="button"
        className="utrecht-button utrecht-button--primary-action"
        onClick={() => window.location.reload()}
      >
        Opnieuw proberen
      </button>
    </main>
  );
}

/** A lazy screen: at once when its code is there, else through Suspense. */
function ScreenOf({ screen }: { screen: LazyScreen }) {
  const Ready = screen.loaded();
  return Ready ? <Ready /> : <screen.Lazy />;
}

/**
 * Every route but /login is lazy-loaded (docs/architecture.md), together with the cache of server answers those
 * screens share (TanStack Query, kept out of the sign-in screen's JavaScript: apps/web/README.md#size). Once its code
 * is there a screen renders at once; only a screen still loading shows the Suspense fallback, whose content React
 * then reveals no sooner than 300 ms after it appeared.
 */
function lazyScreen(
  load: () => Promise<{ default: ComponentType }>,
  /** Asks for the screen's first answers while its code loads; a failure is the screen's to show when it asks. */
  warm?: (answers: QueryClient) => Promise<void>,
): LazyScreen {
  let ready: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const loadScreen = () => {
    if (loading) return loading;
    loading = (async () => {
      const data = import('./api/ServerData');
      if (warm) void data.then(({ serverAnswers }) => warm(serverAnswers)).catch(() => undefined);
      const code = await Promise.all([data, load()]).catch(() => undefined);
      if (!code) {
        loading = undefined;
        // While the page loads again the screen stays 'Laden…'.
        return reloadOnce() ? new Promise<never>(() => undefined) : CodeUnavailable;
      }
      const [{ ServerData }, { default: Screen }] = code;
      ready = () => (
        <ServerData>
          <Screen />
        </ServerData>
      );
      return ready;
    })();
    return loading;
  };
  return {
    preload: loadScreen,
    loaded: () => ready,
    Lazy: lazy(async () => ({ default: await loadScreen() })),
  };
}

const ServicesScreen = lazyScreen(() => import('./screens/ServicesScreen'));
const LogoutScreen = lazyScreen(() => import('./screens/LogoutScreen'));
const NotFoundScreen = lazyScreen(() => import('./screens/NotFoundScreen'));
const TwoFactorScreen = lazyScreen(() => import('./screens/TwoFactorScreen'));
const SettingsScreen = lazyScreen(() => import('./screens/SettingsScreen'));
const RecoveryScreen = lazyScreen(() => import('./screens/RecoveryScreen'));
const OverviewScreen = lazyScreen(
  () => import('./overview/OverviewScreen'),
  async (answers) => (await import('./overview/users-page-query')).warmOverview(answers),
);
const VerificationScreen = lazyScreen(() => import('./screens/VerificationScreen'));
const RegistrationScreen = lazyScreen(() => import('./screens/RegistrationScreen'));
const ErrorScreen = lazyScreen(() => import('./screens/ErrorScreen'));
const AccessibilityStatementScreen = lazyScreen(() => import('./statement/AccessibilityStatementScreen'));
const AuditLogScreen = lazyScreen(() => import('./audit/AuditLogScreen'));
const AccessReviewScreen = lazyScreen(() => import('./review/AccessReviewScreen'));
const ImportScreen = lazyScreen(() => import('./imports/ImportScreen'));
const ProgrammeScreen = lazyScreen(() => import('./programme/ProgrammeScreen'));
const ProgrammeServicesScreen = lazyScreen(() => import('./programme/ProgrammeServicesScreen'));
const ProgrammeAdministratorsScreen = lazyScreen(() => import('./programme/ProgrammeAdministratorsScreen'));

/** A path containing 'admin' (such as /admin-login) is the sign-in with the administrator text. */
function UnknownPath() {
  return useLocation().pathname.includes('admin') ? <LoginScreen /> : <ScreenOf screen={NotFoundScreen} />;
}

/** The lazily loaded screens by path. */
const LAZY_SCREENS: Record<string, LazyScreen> = {
  '/permissies': ServicesScreen,
  '/uitloggen': LogoutScreen,
  '/': OverviewScreen,
  '/recovery': RecoveryScreen,
  '/verification': VerificationScreen,
  '/registration': RegistrationScreen,
  '/settings': SettingsScreen,
  '/settings/2fa-app': TwoFactorScreen,
  '/error': ErrorScreen,
  '/toegankelijkheid': AccessibilityStatementScreen,
  '/logboek': AuditLogScreen,
  '/toegangsreview': AccessReviewScreen,
  '/importeren': ImportScreen,
  '/programmabeheer': ProgrammeScreen,
  '/programmabeheer/datavoorzieningen': ProgrammeServicesScreen,
  '/programmabeheer/beheerders': ProgrammeAdministratorsScreen,
};

/**
 * Loads the code of the screen at `pathname`, if it is a lazy one, so that the first render shows it without the
 * Suspense fallback; `main.tsx` waits for it, at most `ms`, before rendering.
 */
export function preloadScreen(pathname: string, ms: number): Promise<unknown> {
  const screen = LAZY_SCREENS[pathname];
  if (!screen) return Promise.resolve();
  return Promise.race([screen.preload().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, ms))]);
}

/** The portal's routes, for the router of `App` (and of the tests). */
export const appRoutes = (
  <>
    <Route path="/login" element={<LoginScreen />} />
    <Route path="/admin-login" element={<LoginScreen />} />
    {Object.entries(LAZY_SCREENS).map(([path, screen]) => (
      <Route key={path} path={path} element={<ScreenOf screen={screen} />} />
    ))}
    <Route path="*" element={<UnknownPath />} />
  </>
);

function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>{appRoutes}</Routes>
    </Suspense>
  );
}

export default function App() {
  return (
    <ToastProvider>
      <BrowserRouter>
        <PageHeader />
        <AppRoutes />
        <PageFooter />
      </BrowserRouter>
    </ToastProvider>
  );
}
