import { expect } from 'vitest';
import type { Locator } from 'playwright-core';

/**
 * WCAG 3.3.8: a password or code can be pasted into `field`. Puts `text` on the clipboard, pastes it with the
 * keyboard and expects it in the field; the page needs the clipboard permissions. Then checks that the field lets a
 * paste event through (nothing calls preventDefault on it). Leaves the field empty.
 */
export async function expectPasteWorks(field: Locator, text: string, what: string) {
  const page = field.page();
  await field.fill('');
  // The clipboard is only for the page in front.
  await page.bringToFront();
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await field.focus();
  await page.keyboard.press('ControlOrMeta+V');
  expect(await field.inputValue(), `pasted into ${what}`).toBe(text);
  const prevented = await field.evaluate((element, value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    const paste = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    element.dispatchEvent(paste);
    return paste.defaultPrevented;
  }, text);
  expect(prevented, `paste blocked in ${what}`).toBe(false);
  await field.fill('');
}
