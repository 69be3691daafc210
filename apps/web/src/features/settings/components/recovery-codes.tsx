import { DownloadIcon, KeyRoundIcon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useSettingsTexts } from '@/lib/use-group-texts';

/** The codes as a text file a person can keep: what they are, for which account, one a line. */
function codesFile(codes: string[], username: string, heading: string): string {
  return `${heading}\n${username}\n\n${codes.join('\n')}\n`;
}

/**
 * Ten single-use recovery codes, shown this once: as a list, and as a text file to download.
 * `onDone` when the user says they are kept.
 */
export function RecoveryCodes({
  codes,
  username,
  onDone,
}: {
  codes: string[];
  username: string;
  onDone: () => void;
}) {
  const { t } = useSettingsTexts();
  const href = React.useMemo(
    () =>
      URL.createObjectURL(
        new Blob([codesFile(codes, username, t('settings.twoFactor.codesFileHeading'))], {
          type: 'text/plain;charset=utf-8',
        }),
      ),
    [codes, username, t],
  );
  React.useEffect(() => () => URL.revokeObjectURL(href), [href]);

  return (
    <div className="grid gap-4" data-testid="recovery-codes">
      <Alert variant="warning">
        <KeyRoundIcon aria-hidden="true" />
        <AlertTitle>{t('settings.twoFactor.codesTitle')}</AlertTitle>
        <AlertDescription>{t('settings.twoFactor.codesDescription')}</AlertDescription>
      </Alert>
      <ol className="grid grid-cols-1 gap-2 font-mono text-sm sm:grid-cols-2">
        {codes.map((code) => (
          <li
            key={code}
            className="rounded-md border border-border px-3 py-2"
            data-testid="recovery-code"
          >
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline">
          <a
            href={href}
            download="portico-recovery-codes.txt"
            data-testid="recovery-codes-download"
          >
            <DownloadIcon aria-hidden="true" />
            {t('settings.twoFactor.download')}
          </a>
        </Button>
        <Button type="button" onClick={onDone} data-testid="recovery-codes-done">
          {t('settings.twoFactor.codesSaved')}
        </Button>
      </div>
    </div>
  );
}
