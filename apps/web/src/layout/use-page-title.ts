import { useEffect } from 'react';

/**
 * Every screen has its own page title (WCAG 2.4.2), and a screen that goes through steps or states names the one it
 * is in after the screen's own title: 'Inloggen – tweede stap – Datavoorzieningen Portaal'.
 */
export function usePageTitle(title: string, step?: string | false): void {
  const full = step ? `${title} – ${step}` : title;
  useEffect(() => {
    document.title = `${full} – Datavoorzieningen Portaal`;
  }, [full]);
}
