import { Fragment } from 'react';

/**
 * A part of an address with its '@' kept to the character before it, so that no line ever starts with the '@', and
 * each hyphen kept to the character after it, so that in the table (where there is room) no line ends with a hyphen.
 */
function Unbroken({ text }: { text: string }) {
  const pieces = text.split(/(-.|.@)/);
  return (
    <>
      {pieces.map((piece, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of a fixed text, never reordered
          <span key={index} className={piece.endsWith('@') ? 'dvp-nowrap' : 'dvp-email__hyphen'}>
            {piece}
          </span>
        ) : (
          piece
        ),
      )}
    </>
  );
}

/**
 * An e-mail address that wraps only where a reader still sees one address: after its '@' and before a dot; never
 * before the '@', and in the table never after a hyphen (which would look like one added at the end of the line). On
 * a narrow card a part longer than the line may wrap after a hyphen (`styles/layout.css`). The text is the address
 * itself, for copying and for assistive technology.
 */
export function EmailAddress({ address }: { address: string }) {
  const parts = address.split(/(?<=@)|(?=\.)/);
  return (
    <span className="dvp-email">
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a fixed text, never reordered
        <Fragment key={index}>
          {index > 0 && <wbr />}
          <Unbroken text={part} />
        </Fragment>
      ))}
    </span>
  );
}
