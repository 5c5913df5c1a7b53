import { useState } from 'react';
import { downloadFile } from '../components/download';

/** Copy, download and print for freshly shown backup codes (spec: the 2FA-app screen is ours to design). */
export function BackupCodeActions({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const text = `Back-upcodes Datavoorzieningen Portaal\n\n${codes.join('\n')}\n\nElke code werkt één keer.\n`;
  async function copy() {
    await navigator.clipboard.writeText(text);
    setCopied(true);
  }
  const download = () => downloadFile('back-upcodes-datavoorzieningen.txt', text, 'text/plain;charset=utf-8');
  return (
    <div className="dvp-links">
      <button type="button" className="utrecht-button utrecht-button--secondary-action" onClick={() => void copy()}>
        Kopiëren
      </button>
      <button type="button" className="utrecht-button utrecht-button--secondary-action" onClick={download}>
        Downloaden
      </button>
      <button type="button" className="utrecht-button utrecht-button--secondary-action" onClick={() => window.print()}>
        Afdrukken
      </button>
      <p role="status" className="utrecht-paragraph">
        {copied ? 'De codes staan op je klembord.' : ''}
      </p>
    </div>
  );
}
