import { CopyIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { useServersTexts } from '@/lib/use-group-texts';

/** A value to copy as it is (a key, a command): shown whole, with its copy button. */
export function CopyValue({
  label,
  value,
  testId,
}: {
  label: string;
  value: string;
  testId: string;
}) {
  const { t } = useServersTexts();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: t('servers.generated.copied') });
    } catch {
      toast({ variant: 'destructive', title: t('servers.generated.copyFailed') });
    }
  };
  return (
    <div className="grid gap-1.5">
      <p className="text-sm font-medium">{label}</p>
      <div className="flex items-start gap-2">
        <code
          className="min-w-0 flex-1 rounded-md bg-background px-3 py-2 font-mono text-xs break-all text-foreground"
          data-testid={testId}
        >
          {value}
        </code>
        <Button
          type="button"
          size="sm"
          variant="outline"
          onClick={copy}
          aria-label={`${t('servers.generated.copy')}: ${label}`}
          data-testid={`${testId}-copy`}
        >
          <CopyIcon aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">{t('servers.generated.copy')}</span>
        </Button>
      </div>
    </div>
  );
}
