import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/nl-design-system.css';
import './styles/theme.css';
import './styles/layout.css';
import App, { preloadScreen } from './App';

// The screen the browser opens on renders at once when its code is there first (App.tsx `lazyScreen`); a slow
// network gets the page with its loading state after at most this long.
const PRELOAD_WAIT_MS = 1_000;

void preloadScreen(window.location.pathname, PRELOAD_WAIT_MS).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
