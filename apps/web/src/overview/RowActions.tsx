import { type Ref, useRef, useState } from 'react';
import { Button as AriaButton, Tooltip, TooltipTrigger } from 'react-aria-components';
import type { PortalUser } from '../api/users-api';
import { fullName } from './sorting';

export type RowActionKind =
  | 'reset'
  | 'edit'
  | 'unlock'
  | 'signout'
  | 'block'
  | 'unblock'
  | 'delete'
  | 'resend'
  | 'withdraw';

const LABELS: Record<RowActionKind, string> = {
  reset: 'Reset 2FA',
  edit: 'Bewerken',
  unlock: 'Ontgrendelen',
  signout: 'Afmelden',
  block: 'Blokkeer',
  unblock: 'Deblokkeer',
  delete: 'Verwijderen',
  resend: 'Opnieuw versturen',
  withdraw: 'Uitnodiging intrekken',
};

/**
 * Where the short label needs more words, for a tooltip and assistive technology (starting with the label). Only these
 * buttons have a tooltip: elsewhere it would only repeat the button's text.
 */
const DESCRIPTIONS: Partial<Record<RowActionKind, string>> = {
  signout: 'Afmelden op alle apparaten',
  resend: 'Opnieuw versturen van de uitnodiging',
};

/** Whether the account is locked after too many failed sign-ins, now. */
export const isLocked = (user: PortalUser, now = Date.now()) =>
  user.lockedUntil !== undefined && Date.parse(user.lockedUntil) > now;

/** A guest: a member whose account another organisation (its home) keeps; here only its roles change. */
export const isGuest = (user: PortalUser) => user.home === false && !user.invitation;

/**
 * The actions a row offers, in the order shown. An invited person is not a member yet: the invitation is all there
 * is to send again or take back. The account itself (second factor, blocking) is for its home organisation only, so
 * a guest has none of those; and nobody blocks or deletes themselves (the server refuses it too).
 */
const RESETTABLE = ['totp', 'lookup_secret', 'webauthn'];

export function rowActionsOf(user: PortalUser, me: string): RowActionKind[] {
  if (user.invitation) return ['resend', 'withdraw'];
  const guest = isGuest(user);
  const self = user.id === me;
  const actions: RowActionKind[] = [];
  // 'Reset 2FA' removes the app, backup codes and security keys (a passkey stays: it is a way to sign in).
  if (!guest && RESETTABLE.some((type) => user.credentials.includes(type))) actions.push('reset');
  actions.push('edit');
  if (!guest && isLocked(user)) actions.push('unlock');
  // One's own other sessions end on the account settings; a blocked account has none.
  if (!self && !guest && user.state === 'active') actions.push('signout');
  if (!self && !guest) actions.push(user.state === 'inactive' ? 'unblock' : 'block');
  if (!self) actions.push('delete');
  return actions;
}

type Placement = 'top' | 'bottom' | 'start' | 'end';
const SIDES: Placement[] = ['top', 'bottom', 'start', 'end'];
/** Room taken by the tooltip beside its button: its offset, and a little more so that edges do not touch. */
const GAP = 8;

type Area = { left: number; right: number; top: number; bottom: number };

/** The size the tooltip with `text` takes, measured on a hidden copy. */
function tooltipSize(text: string) {
  const probe = document.createElement('div');
  probe.className = 'dvp-tooltip';
  probe.textContent = text;
  Object.assign(probe.style, { position: 'fixed', visibility: 'hidden', insetBlockStart: '0', whiteSpace: 'nowrap' });
  document.body.append(probe);
  const { width, height } = probe.getBoundingClientRect();
  probe.remove();
  return { width, height };
}

/** The boxes of everything on the page a tooltip must not cover: every line of text and every control. */
function contentBoxes(except: HTMLElement): DOMRect[] {
  const boxes = [...document.querySelectorAll('button, a[href], input, select, textarea')]
    .filter((control) => control !== except)
    .map((control) => control.getBoundingClientRect());
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  // Without layout (jsdom) there are no lines to measure.
  if (typeof range.getClientRects !== 'function') return boxes;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent?.trim() || except.contains(node)) continue;
    range.selectNodeContents(node);
    boxes.push(...range.getClientRects());
  }
  return boxes.filter((box) => box.width > 0 && box.height > 0);
}

/**
 * The first side of the button where a tooltip with `text` stays in the window and covers nothing else: no other
 * control and no text (in the table the date before the buttons, on a card the labels and values around them). None
 * when every side is taken: the tooltip is left out rather than put over something that matters.
 */
function freeSide(button: HTMLElement, text: string): Placement | undefined {
  const box = button.getBoundingClientRect();
  const { width, height } = tooltipSize(text);
  const middleX = box.left + box.width / 2;
  const middleY = box.top + box.height / 2;
  const across = { left: middleX - width / 2, right: middleX + width / 2 };
  const beside = { top: middleY - height / 2, bottom: middleY + height / 2 };
  const areas: Record<Placement, Area> = {
    top: { ...across, top: box.top - GAP - height, bottom: box.top },
    bottom: { ...across, top: box.bottom, bottom: box.bottom + GAP + height },
    start: { ...beside, left: box.left - GAP - width, right: box.left },
    end: { ...beside, left: box.right, right: box.right + GAP + width },
  };
  const content = contentBoxes(button);
  const free = (area: Area) =>
    area.left >= 0 &&
    area.top >= 0 &&
    area.right <= window.innerWidth &&
    area.bottom <= window.innerHeight &&
    !content.some(
      (rect) => rect.left < area.right && area.left < rect.right && rect.top < area.bottom && area.top < rect.bottom,
    );
  return SIDES.find((side) => free(areas[side]));
}

/** A row button: its visible text, and what assistive technology hears (the same words, then whom it is about). */
function RowButton({
  label,
  description,
  person,
  onPress,
  ref,
}: {
  label: string;
  description: string;
  person: string;
  onPress(): void;
  ref?: Ref<HTMLButtonElement>;
}) {
  return (
    // The visible text first, then whom it is about (WCAG 2.5.3): 'Bewerken: Jan Jansen'.
    <AriaButton
      ref={ref}
      className="utrecht-button utrecht-button--secondary-action"
      aria-label={`${description}: ${person}`}
      onPress={onPress}
    >
      {label}
    </AriaButton>
  );
}

/**
 * A row button whose short text needs more words ('Afmelden': on every device). A tooltip shows them, where it
 * covers nothing else; a button whose text says it all has none (it would only repeat the text).
 */
function RowAction({
  label,
  description,
  person,
  onPress,
}: {
  label: string;
  description?: string;
  person: string;
  onPress(): void;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const [placement, setPlacement] = useState<Placement>('top');
  const [open, setOpen] = useState(false);
  if (!description) return <RowButton label={label} description={label} person={person} onPress={onPress} />;
  return (
    <TooltipTrigger
      delay={400}
      isOpen={open}
      onOpenChange={(next) => {
        const side = next && button.current ? freeSide(button.current, description) : undefined;
        if (side) setPlacement(side);
        setOpen(Boolean(side));
      }}
    >
      <RowButton ref={button} label={label} description={description} person={person} onPress={onPress} />
      {/* Not flipped: the side was chosen because it is free. */}
      <Tooltip className="dvp-tooltip" placement={placement} offset={6} shouldFlip={false}>
        {description}
      </Tooltip>
    </TooltipTrigger>
  );
}

/** The buttons of one row of the overview: `actions` in that order, each naming the person to assistive technology. */
export function RowActions({
  user,
  actions,
  onAction,
}: {
  user: PortalUser;
  actions: RowActionKind[];
  onAction(kind: RowActionKind): void;
}) {
  return (
    <div className="dvp-row-actions">
      {actions.map((kind) => (
        <RowAction
          key={kind}
          label={LABELS[kind]}
          description={DESCRIPTIONS[kind]}
          person={fullName(user)}
          onPress={() => onAction(kind)}
        />
      ))}
    </div>
  );
}
