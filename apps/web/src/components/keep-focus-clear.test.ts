import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepFocusClear } from './keep-focus-clear';

/** A box at these window coordinates, for an element jsdom cannot lay out. */
const at = (element: Element, top: number, bottom: number, left = 0, right = 300) =>
  vi
    .spyOn(element, 'getBoundingClientRect')
    .mockReturnValue(DOMRect.fromRect({ x: left, y: top, width: right - left, height: bottom - top }));

function page() {
  document.body.innerHTML = '<button>Bewerken</button><div></div><ol><li>Gebruiker aangepast</li></ol>';
  const [button, room, list] = [...document.body.children] as HTMLElement[];
  button!.scrollIntoView = vi.fn();
  window.innerHeight = 740;
  return { button: button!, room: room!, list: list!, toast: list!.firstElementChild! };
}

afterEach(() => {
  document.body.innerHTML = '';
  document.documentElement.style.scrollPaddingBlockEnd = '';
});

describe('keepFocusClear', () => {
  it('scrolls the focused control out from under a toast, keeping the toasts’ height free', () => {
    const { button, room, list, toast } = page();
    at(toast, 620, 708);
    at(button, 660, 696);
    button.focus();
    expect(keepFocusClear(list, room)).toBe(true);
    expect(button.scrollIntoView).toHaveBeenCalledWith({ block: 'nearest', inline: 'nearest' });
    expect(room.style.blockSize).toBe('136px');
    expect(document.documentElement.style.scrollPaddingBlockEnd).toBe('136px');
  });

  it('leaves a control beside the toasts, and frees the room once they are gone', () => {
    const { button, room, list, toast } = page();
    at(toast, 620, 708, 320, 700);
    at(button, 660, 696, 0, 300);
    button.focus();
    expect(keepFocusClear(list, room)).toBe(false);
    expect(button.scrollIntoView).not.toHaveBeenCalled();
    toast.remove();
    expect(keepFocusClear(list, room)).toBe(false);
    expect(room.style.blockSize).toBe('0px');
    expect(document.documentElement.style.scrollPaddingBlockEnd).toBe('');
  });
});
