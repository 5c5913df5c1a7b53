import { useRef, useState } from 'react';
import { Button as AriaButton, Tooltip, TooltipTrigger } from 'react-aria-components';
import type { PortalUser } from '../api/users-api';
import { fullName } from './sorting';

export type RowActionKind = 'reset' | 'edit' | 'unlock' | 'signout' | 'block' | 'unblock' | 'delete' | 'withdraw';

const LABELS: Record<RowActionKind, string> = {
  reset: 'Reset 2FA',
  edit: 'Bewerken',
  unlock: 'Ontgrendelen',
  signout: 'Afmelden',
  block: 'Blokkeer',
  unblock: 'Deblokkeer',
  delete: 'Verwijderen',
  withdraw: 'Uitnodiging intrekken',
};

/** Where the short label needs more words, for the tooltip and assistive technology (starting with the label). */
const DESCRIPTIONS: Partial<Record<RowActionKind, string>> = { signout: 'Afmelden op alle apparaten' };

/** Whether the account is locked after too many failed sign-ins, now. */
export const isLocked = (user: PortalUser, now = Date.now()) =>
  user.lockedUntil !== undefined && Date.parse(user.lockedUntil) > now;

/** A guest: a member whose account another organisation (its home) keeps; here only its roles change. */
export const isGuest = (user: PortalUser) => user.home === false && !user.invitation;

/**
 * The actions a row offers, in the order shown. An invited person is not a member yet: the invitation is all there
 * is to take back. The account itself (second factor, blocking) is for its home organisation only, so a guest has
 * none of those; and nobody blocks or deletes themselves (the server refuses it too).
 */
const RESETTABLE = ['totp', 'lookup_secret', 'webauthn'];

export function rowActionsOf(user: PortalUser, me: string): RowActionKind[] {
  if (user.invitation) return ['withdraw'];
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
/** The tooltip's height: one line of small text with its padding, rounded up. */
const TOOLTIP_HEIGHT = 32;

/**
 * The first side of the button where its tooltip stays in the window and covers no other control: in the table the
 * buttons stand one under the other, so mostly the side before them (the date, text only); on a card the line above
 * or below, unless another button or the download button is there. None when every side is taken: the tooltip only
 * repeats the button's text, so it is left out rather than put over another control. It is at most as wide as the
 * button.
 */
function freeSide(button: HTMLElement): Placement | undefined {
  const box = button.getBoundingClientRect();
  const width = box.width;
  const middleX = box.left + box.width / 2;
  const middleY = box.top + box.height / 2;
  const across = { left: middleX - width / 2, right: middleX + width / 2 };
  const beside = { top: middleY - TOOLTIP_HEIGHT / 2, bottom: middleY + TOOLTIP_HEIGHT / 2 };
  const areas: Record<Placement, { left: number; right: number; top: number; bottom: number }> = {
    top: { ...across, top: box.top - GAP - TOOLTIP_HEIGHT, bottom: box.top },
    bottom: { ...across, top: box.bottom, bottom: box.bottom + GAP + TOOLTIP_HEIGHT },
    start: { ...beside, left: box.left - GAP - width, right: box.left },
    end: { ...beside, left: box.right, right: box.right + GAP + width },
  };
  const controls = [...document.querySelectorAll('button, a[href], input, select, textarea')]
    .filter((control) => control !== button)
    .map((control) => control.getBoundingClientRect())
    .filter((rect) => rect.width > 0 && rect.height > 0);
  const free = (area: (typeof areas)[Placement]) =>
    area.left >= 0 &&
    area.top >= 0 &&
    area.right <= window.innerWidth &&
    area.bottom <= window.innerHeight &&
    !controls.some(
      (rect) => rect.left < area.right && area.left < rect.right && rect.top < area.bottom && area.top < rect.bottom,
    );
  return SIDES.find((side) => free(areas[side]));
}

function RowAction({
  label,
  description = label,
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
  return (
    <TooltipTrigger
      delay={400}
      isOpen={open}
      onOpenChange={(next) => {
        const side = next && button.current ? freeSide(button.current) : undefined;
        if (side) setPlacement(side);
        setOpen(Boolean(side));
      }}
    >
      {/* The visible text first, then whom it is about (WCAG 2.5.3): 'Bewerken: Jan Jansen'. */}
      <AriaButton
        ref={button}
        className="utrecht-button utrecht-button--secondary-action"
        aria-label={`${description}: ${person}`}
        onPress={onPress}
      >
        {label}
      </AriaButton>
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
