import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import type { TDraftField, TOptionsDraft } from '@/lib/proxy-options-draft';
import { useOptionsTexts } from '@/lib/use-group-texts';

type TTuningField = 'maxFails' | 'failTimeout' | 'timeoutConnect' | 'timeoutSend' | 'timeoutRead';

/** What an empty field means: nginx's passive-health defaults, Portico's timeouts. */
const DEFAULTS: Record<TTuningField, string> = {
  maxFails: '1',
  failTimeout: '10',
  timeoutConnect: '15',
  timeoutSend: '300',
  timeoutRead: '300',
};

type TProps = {
  id: (name: string) => string;
  draft: TOptionsDraft;
  set: (key: TTuningField, value: string) => void;
  errors: Partial<Record<TDraftField, string>>;
};

/**
 * The upstreams' passive health (max_fails, fail_timeout) and the proxy timeouts
 * (docs/PRODUCT.md#proxy-options): whole numbers, empty for the default each field shows.
 */
export function UpstreamTuningFields({ id, draft, set, errors }: TProps) {
  const { t } = useOptionsTexts();
  const number = (name: TTuningField) => (
    <Field id={id(name)} label={t(`options.${name}`)} error={errors[name]}>
      {(aria) => (
        <Input
          {...aria}
          inputMode="numeric"
          placeholder={DEFAULTS[name]}
          value={draft[name]}
          onChange={(e) => set(name, e.target.value)}
          data-testid={id(name)}
        />
      )}
    </Field>
  );
  const group = (name: 'health' | 'timeouts', fields: TTuningField[], columns: string) => (
    <fieldset className="grid gap-2" aria-describedby={id(`${name}-hint`)}>
      <legend className="mb-1 text-sm font-medium">{t(`options.${name}`)}</legend>
      <p id={id(`${name}-hint`)} className="text-xs text-muted-foreground">
        {t(`options.${name}Hint`)}
      </p>
      <div className={`grid items-start gap-4 ${columns}`}>{fields.map(number)}</div>
    </fieldset>
  );
  return (
    <>
      {group('health', ['maxFails', 'failTimeout'], 'grid-cols-2')}
      {group('timeouts', ['timeoutConnect', 'timeoutSend', 'timeoutRead'], 'grid-cols-3')}
    </>
  );
}
