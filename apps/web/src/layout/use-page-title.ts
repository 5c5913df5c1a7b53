import { useEffect } from 'react';

/** Every screen has its own page title (WCAG 2.4.2). */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} – Datavoorzieningen Portaal`;
  }, [title]);
}
