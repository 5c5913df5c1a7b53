import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import LoginScreen from './screens/LoginScreen';
import { ToastProvider } from './components/Toasts';
import { PageFooter } from './layout/PageFooter';
import { PageHeader } from './layout/PageHeader';
import { Loading } from './components/Loading';

// Every route but /login is lazy-loaded (docs/architecture.md).
const ServicesScreen = lazy(() => import('./screens/ServicesScreen'));
const LogoutScreen = lazy(() => import('./screens/LogoutScreen'));
const NotFoundScreen = lazy(() => import('./screens/NotFoundScreen'));
const TwoFactorScreen = lazy(() => import('./screens/TwoFactorScreen'));
const SettingsScreen = lazy(() => import('./screens/SettingsScreen'));
const RecoveryScreen = lazy(() => import('./screens/RecoveryScreen'));
const OverviewScreen = lazy(() => import('./overview/OverviewScreen'));
const VerificationScreen = lazy(() => import('./screens/VerificationScreen'));
const RegistrationScreen = lazy(() => import('./screens/RegistrationScreen'));
const ErrorScreen = lazy(() => import('./screens/ErrorScreen'));
const AccessibilityStatementScreen = lazy(() => import('./statement/AccessibilityStatementScreen'));

const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });

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
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <BrowserRouter>
          <PageHeader />
          <AppRoutes />
          <PageFooter />
        </BrowserRouter>
      </ToastProvider>
    </QueryClientProvider>
  );
}
