import { useState } from 'react';
import { downloadFile } from './download';
import { useToast } from './Toasts';

interface CsvDownloadButtonProps {
  label: string;
  /** The file's name, made when it is downloaded. */
  name(): string;
  /** Fetches the file from the server. */
  file(): Promise<ArrayBuffer>;
  /** After the browser has the file. */
  onDone?(): unknown;
}

/**
 * A button that downloads a CSV file the server makes (the overview's people, 'Logboek'): pressed again while it
 * downloads, it does nothing; a failure is said in a toast.
 */
export function CsvDownloadButton({ label, name, file, onDone }: CsvDownloadButtonProps) {
  const toast = useToast();
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      downloadFile(name(), await file(), 'text/csv;charset=utf-8');
      await onDone?.();
    } catch {
      toast({ title: 'Downloaden is niet gelukt. Probeer het later nog eens.', variant: 'error' });
    } finally {
      setDownloading(false);
    }
  };
  return (
    <p className="dvp-export">
      <button
        type="button"
        className="utrecht-button utrecht-button--secondary-action"
        aria-disabled={downloading || undefined}
        onClick={() => !downloading && void download()}
      >
        {label}
      </button>
    </p>
  );
}
