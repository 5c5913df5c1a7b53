import axe from 'axe-core';

/**
 * The WCAG 2.0–2.2 A and AA rules that axe can judge in jsdom. Colour contrast needs real layout and is checked by
 * the browser journeys and by the theme's contrast test instead.
 */
export async function axeViolations(container: Element): Promise<string[]> {
  const result = await axe.run(container, {
    runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'],
    rules: { 'color-contrast': { enabled: false } },
  });
  return result.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}
