import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/nl-design-system.css';
import './styles/theme.css';
import './styles/layout.css';
import App from './App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
