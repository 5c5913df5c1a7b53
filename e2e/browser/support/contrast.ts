// Colour contrast as WCAG 2.2 defines it, for the checks axe does not make (focus indicators, borders of fields).

/** A colour as red, green and blue from 0 to 255 and an opacity from 0 to 1. */
interface Colour {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** A computed CSS colour as Chromium gives it: `rgb(r, g, b)` or `rgba(r, g, b, a)`. */
export function parseColour(text: string): Colour {
  const match = /^rgba?\(\s*([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\s*\)$/.exec(text.trim());
  if (!match) throw new Error(`not a computed rgb() colour: '${text}'`);
  const [r, g, b] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  return { r, g, b, a: match[4] === undefined ? 1 : Number(match[4]) };
}

/**
 * The colour a person sees behind an element: `layers` are the computed background colours of the element and its
 * ancestors, innermost first; the page is white under them all.
 */
export function backdrop(layers: string[]): Colour {
  const colours = layers.map(parseColour);
  const opaque = colours.findIndex((colour) => colour.a >= 1);
  const stack = opaque === -1 ? colours : colours.slice(0, opaque + 1);
  return stack.reduceRight<Colour>((below, above) => over(above, below), { r: 255, g: 255, b: 255, a: 1 });
}

/** `top` painted over the opaque `below`. */
function over(top: Colour, below: Colour): Colour {
  const mix = (upper: number, lower: number) => upper * top.a + lower * (1 - top.a);
  return { r: mix(top.r, below.r), g: mix(top.g, below.g), b: mix(top.b, below.b), a: 1 };
}

/** WCAG's relative luminance of an opaque sRGB colour. */
function luminance({ r, g, b }: Colour): number {
  const linear = (channel: number) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG's contrast ratio (1 to 21) of `front` (painted over `back` when translucent) against `back`. */
export function contrast(front: Colour, back: Colour): number {
  const [one, two] = [luminance(over(front, back)), luminance(back)];
  return (Math.max(one, two) + 0.05) / (Math.min(one, two) + 0.05);
}
