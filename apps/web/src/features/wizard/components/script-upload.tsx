import { FileCode2Icon, UploadIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { scriptProblem, type TScriptProblem } from '../api/upload-script';

/**
 * The optional custom deployment script (docs/PRODUCT.md#custom-deployment-script): drop a `.sh` file or browse for one; it is
 * uploaded once the configuration is saved, and runs on the user's server as the last step.
 */
export function ScriptUpload({
  file,
  onChange,
  currentName,
}: {
  file: File | null;
  onChange: (file: File | null) => void;
  currentName: string | null;
}) {
  const { t } = useTranslation();
  // Kept as the problem, not its words: they follow a language switch.
  const [problem, setProblem] = React.useState<TScriptProblem | null>(null);
  const [dragging, setDragging] = React.useState(false);
  const inputRef = React.useRef<HTMLInputElement>(null);

  const pick = (picked: File | undefined) => {
    if (!picked) return;
    const issue = scriptProblem(picked);
    if (issue) {
      setProblem(issue);
      return;
    }
    setProblem(null);
    onChange(picked);
  };

  return (
    <section className="grid gap-2" aria-labelledby="wizard-script-title">
      <h3 id="wizard-script-title" className="text-sm font-semibold">
        {t('wizard.script.title')}
      </h3>
      <p id="wizard-script-hint" className="text-xs text-muted-foreground">
        {t('wizard.script.description')}
      </p>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer shortcut; Browse is the keyboard path */}
      <div
        className={cn(
          'flex flex-col items-center gap-2 rounded-lg border-2 border-dashed p-4 text-center text-sm',
          dragging ? 'border-primary bg-primary-soft' : 'border-border',
        )}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          pick(e.dataTransfer.files[0]);
        }}
        data-testid="wizard-script-drop"
      >
        <UploadIcon className="size-5 text-muted-foreground" aria-hidden="true" />
        <span className="text-muted-foreground">{t('wizard.script.drop')}</span>
        <input
          ref={inputRef}
          id="wizard-script-input"
          type="file"
          accept=".sh,text/x-sh,application/x-sh"
          className="sr-only"
          tabIndex={-1}
          aria-label={t('wizard.script.browse')}
          onChange={(e) => {
            pick(e.target.files?.[0]);
            e.target.value = '';
          }}
          data-testid="wizard-script-input"
        />
        <Button variant="outline" size="sm" onClick={() => inputRef.current?.click()}>
          {t('wizard.script.browse')}
        </Button>
      </div>
      {file ? (
        <div className="flex items-center gap-2 text-sm" data-testid="wizard-script-file">
          <FileCode2Icon className="size-4 text-primary" aria-hidden="true" />
          <span className="min-w-0 break-all font-medium">{file.name}</span>
          <Button
            variant="ghost"
            size="icon-sm"
            className="ml-auto"
            onClick={() => onChange(null)}
            aria-label={t('wizard.script.remove', { name: file.name })}
          >
            <XIcon aria-hidden="true" />
          </Button>
        </div>
      ) : currentName ? (
        <p className="text-sm text-muted-foreground">
          {t('wizard.script.current', { name: currentName })}
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="text-xs font-medium text-destructive">
          {t(`wizard.script.errors.${problem}`)}
        </p>
      ) : null}
    </section>
  );
}
