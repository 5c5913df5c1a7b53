import { type ComponentType, lazy, Suspense } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import LoginScreen from './screens/LoginScreen';
import { ToastProvider } from './components/Toasts';
import { PageFooter } from './layout/PageFooter';
import { PageHeader } from './layout/PageHeader';
import { Loading } from './components/Loading';

/**
 * Every route but /login is lazy-loaded (docs/architecture.md), together with the cache of server answers those
 * screens share (TanStack Query, kept out of the sign-in screen's JavaScript: apps/web/README.md#size).
 */
function lazyScreen(
  load: () => Promise<{ default: ComponentType }>,
  /** Asks for the screen's first answers while its code loads; a failure is the screen's to show when it asks. */
  warm?: (answers: QueryClient) => Promise<void>,
) {
  return lazy(async () => {
    const data = import('./api/ServerData');
    if (warm) void data.then(({ serverAnswers }) => warm(serverAnswers)).catch(() => undefined);
    const [{ ServerData }, { default: Screen }] = await Promise.all([data, load()]);
    return {
      default: () => (
        <ServerData>
          <Screen />
        </ServerData>
      ),
    };
  });
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

/** A path containing 'admin' (such as /admin-login) is the sign-in with the administrator text. */
function UnknownPath() {
  return useLocation().pathname.includes('admin') ? <LoginScreen /> : <NotFoundScreen />;
}

/** The portal's routes, for the router of `App` (and of the tests). */
export const appRoutes = (
  <>
    <Route path="/login" element={<LoginScreen />} />
    <Route path="/admin-login" element={<LoginScreen />} />
    <Route path="/permissies" element={<ServicesScreen />} />
    <Route path="/uitloggen" element={<LogoutScreen />} />
    <Route path="/" element={<OverviewScreen />} />
    <Route path="/recovery" element={<RecoveryScreen />} />
    <Route path="/verification" element={<VerificationScreen />} />
    <Route path="/registration" element={<RegistrationScreen />} />
    <Route path="/settings" element={<SettingsScreen />} />
    <Route path="/settings/2fa-app" element={<TwoFactorScreen />} />
    <Route path="/error" element={<ErrorScreen />} />
    <Route path="/toegankelijkheid" element={<AccessibilityStatementScreen />} />
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
