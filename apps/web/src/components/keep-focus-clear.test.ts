import { afterEach, describe, expect, it, vi } from 'vitest';
import { fitToastRoom, keepFocusClear } from './keep-focus-clear';

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

/** A page 2,000 px high in a 740 px window, scrolled so that `below` pixels of it are under the window. */
function reaching(below: number) {
  Object.defineProperty(document.documentElement, 'scrollHeight', { value: 2000, configurable: true });
  Object.defineProperty(window, 'scrollY', { value: 2000 - 740 - below, configurable: true });
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
    reaching(1260);
    expect(keepFocusClear(list, room)).toBe(false);
    expect(room.style.blockSize).toBe('0px');
    expect(document.documentElement.style.scrollPaddingBlockEnd).toBe('');
  });

  it('lets the room go only as far as the page reaches below the window, so nothing moves under the pointer', () => {
    const { room, list, toast } = page();
    at(toast, 620, 708);
    fitToastRoom(list, room);
    expect(room.style.blockSize).toBe('136px');
    toast.remove();
    // Scrolled to the very end, into the room: it stays.
    const scrolled = (below: number) => {
      reaching(below);
      fitToastRoom(list, room);
      return room.style.blockSize;
    };
    expect(scrolled(0)).toBe('136px');
    expect(document.documentElement.style.scrollPaddingBlockEnd).toBe('');
    // Scrolled back 100 px: that much of it goes; then the rest.
    expect(scrolled(100)).toBe('36px');
    expect(scrolled(100)).toBe('0px');
  });
});
