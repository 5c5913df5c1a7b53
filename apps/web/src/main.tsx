import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@utrecht/component-library-css/dist/index.css';
import './styles/theme.css';
import './styles/layout.css';
import App from './App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
