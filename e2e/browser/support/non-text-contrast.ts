import { expect } from 'vitest';
import type { Locator } from 'playwright-core';
import { backdrop, contrast, parseColour } from './contrast.js';

/** WCAG 1.4.11: what identifies a control has 3:1 against the colours next to it. */
const MIN_CONTRAST = 3;

interface Edge {
  label: string;
  /** Colours of the sides of the border that are drawn. */
  borders: string[];
  /** The control's own background colours, innermost first. */
  fill: string[];
  /** The backgrounds around the control, innermost first. */
  outside: string[];
  /** The colour of an icon-only control's icon (its `color`, which the icons draw with). */
  icon?: string;
  /** A checkbox or radio button that Chromium draws itself: its computed style says nothing of what shows. */
  native: boolean;
}

/** The border, fill and surroundings of each visible control `locator` finds. */
const edgesOf = (locator: Locator) =>
  locator.evaluateAll((elements) =>
    elements
      .filter((element) => element.getClientRects().length > 0 && !(element as HTMLButtonElement).disabled)
      .map((element): Edge => {
        const style = getComputedStyle(element);
        const borders = (['Top', 'Right', 'Bottom', 'Left'] as const)
          .filter(
            (side) => style[`border${side}Style`] !== 'none' && Number.parseFloat(style[`border${side}Width`]) >= 1,
          )
          .map((side) => style[`border${side}Color`]);
        const layers = (from: Element | null) => {
          const found: string[] = [];
          for (let layer = from; layer; layer = layer.parentElement)
            found.push(getComputedStyle(layer).backgroundColor);
          return found;
        };
        const labelled = (element as HTMLInputElement).labels?.[0]?.textContent;
        const name = (element.getAttribute('aria-label') || labelled || element.textContent || element.id || '').trim();
        const iconOnly = element.querySelector('svg') && !(element as HTMLElement).innerText.trim();
        return {
          label: `<${element.tagName.toLowerCase()}> '${name.slice(0, 40)}'`,
          borders,
          fill: layers(element),
          outside: layers(element.parentElement),
          ...(iconOnly ? { icon: style.color } : {}),
          native: ['checkbox', 'radio'].includes((element as HTMLInputElement).type) && style.appearance !== 'none',
        };
      }),
  );

/** The best contrast the control's boundary has: a border side, or its own fill, against its surroundings. */
function boundaryContrast(edge: Edge): number {
  const outside = backdrop(edge.outside);
  const inside = backdrop(edge.fill);
  return Math.max(contrast(inside, outside), ...edge.borders.map((border) => contrast(parseColour(border), outside)));
}

/**
 * Each visible field `fields` finds has a boundary (border or fill) with 3:1 against its surroundings: without it a
 * person cannot see where to type (WCAG 1.4.11). Checkboxes and radio buttons in the browser's own look are left
 * out (Chromium draws their edge, not the page's CSS). Returns the fields checked.
 */
export async function expectFieldBoundaries(fields: Locator, state: string): Promise<number> {
  const edges = (await edgesOf(fields)).filter((edge) => !edge.native);
  for (const edge of edges) {
    expect(boundaryContrast(edge), `boundary of ${edge.label} on ${state}`).toBeGreaterThanOrEqual(MIN_CONTRAST);
  }
  return edges.length;
}

/**
 * Each visible enabled button `buttons` finds is identifiable: by its text (its contrast is axe's 1.4.3), or, when it
 * shows only an icon, by an icon or a boundary with 3:1 against what is next to it. WCAG 1.4.11 does not ask a
 * button with text for a visible boundary. Returns the lowest boundary contrast of the buttons with text, to report.
 */
export async function expectButtonsIdentifiable(buttons: Locator, state: string): Promise<number> {
  let lowest = 21;
  for (const edge of await edgesOf(buttons)) {
    const boundary = boundaryContrast(edge);
    if (edge.icon === undefined) {
      lowest = Math.min(lowest, boundary);
      continue;
    }
    const icon = contrast(parseColour(edge.icon), backdrop(edge.fill));
    expect(Math.max(icon, boundary), `icon or boundary of ${edge.label} on ${state}`).toBeGreaterThanOrEqual(
      MIN_CONTRAST,
    );
  }
  return lowest;
}
