import type { TDeployPlan, TPlannedFile } from '@portico/shared/proxy/api';
import { FileIcon, LinkIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { usePlanTexts } from '@/lib/use-group-texts';
import { cn } from '@/lib/utils';

const CHANGE_BADGE = {
  create: 'success',
  update: 'warning',
  remove: 'destructive',
  unchanged: 'outline',
} as const;

const CERTIFICATE_WORDS = {
  issue: 'plan.certificateIssue',
  keep: 'plan.certificateKeep',
  upload: 'plan.certificateUpload',
  shared: 'plan.certificateShared',
  none: 'plan.certificateNone',
} as const;

// Added and removed lines: their element, colours and the word a screen reader says first.
const MARKED = {
  '+': { Tag: 'ins', className: 'bg-success-soft text-success', word: 'plan.added', data: 'added' },
  '-': {
    Tag: 'del',
    className: 'bg-destructive-soft text-destructive',
    word: 'plan.removed',
    data: 'removed',
  },
} as const;

/** One line of a unified diff: added and removed lines coloured and named for screen readers. */
function DiffLine({ line }: { line: string }) {
  const { t } = usePlanTexts();
  const row = 'block min-w-full w-max px-3 whitespace-pre no-underline';
  if (line.startsWith('+++') || line.startsWith('---')) {
    return <span className={cn(row, 'font-semibold text-muted-foreground')}>{line}</span>;
  }
  if (line.startsWith('@@')) {
    return <span className={cn(row, 'bg-primary-soft text-primary')}>{line}</span>;
  }
  const marked = MARKED[line[0] as keyof typeof MARKED];
  if (!marked) return <span className={row}>{line}</span>;
  const { Tag, className, word, data } = marked;
  return (
    <Tag className={cn(row, className)} data-diff={data}>
      <span className="sr-only">{t(word)}: </span>
      {line}
    </Tag>
  );
}

function PlannedFile({ file }: { file: TPlannedFile }) {
  const { t } = usePlanTexts();
  const Icon = file.kind === 'link' ? LinkIcon : FileIcon;
  const lines = file.diff ? file.diff.replace(/\n$/, '').split('\n') : [];
  return (
    <li className="grid min-w-0 gap-2" data-testid="plan-file" data-change={file.change}>
      <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
        {/* The icon stays beside the path when a phone wraps it, the badge after both. */}
        <span className="flex min-w-0 items-start gap-2">
          <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <code className="min-w-0 text-xs [overflow-wrap:anywhere]">{file.path}</code>
        </span>
        <Badge variant={CHANGE_BADGE[file.change]}>
          {t(`plan.kind.${file.kind}`)} · {t(`plan.change.${file.change}`)}
        </Badge>
      </div>
      {file.tooLarge ? <p className="text-sm text-muted-foreground">{t('plan.tooLarge')}</p> : null}
      {file.private ? (
        <p className="text-sm text-muted-foreground" data-testid="plan-private">
          {t('plan.private')}
        </p>
      ) : null}
      {lines.length > 0 ? (
        // Scrolls on its own (both ways) and takes the keyboard's focus to do it.
        <section
          className="max-h-80 overflow-auto rounded-md border border-border bg-muted/40 py-2 outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-label={t('plan.diffLabel', { path: file.path })}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
          tabIndex={0}
          data-testid="plan-diff"
        >
          <pre className="font-mono text-xs leading-5">
            <code>
              {lines.map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines are only ever shown in order
                <DiffLine key={i} line={line} />
              ))}
            </code>
          </pre>
        </section>
      ) : null}
    </li>
  );
}

/** A deployment's plan: what it says in words, each file with its diff, each command. */
export function PlanView({ plan }: { plan: TDeployPlan }) {
  const { t } = usePlanTexts();
  const changed = plan.files.filter((f) => f.change !== 'unchanged').length;
  return (
    <div className="grid min-w-0 gap-4" data-testid="plan-view">
      <div className="grid gap-1 text-sm" data-testid="plan-summary">
        <p className="font-medium" data-testid="plan-changes">
          {changed === 0 ? t('plan.noChanges') : t('plan.changes', { count: changed })}
        </p>
        <p data-testid="plan-reload" data-reload={plan.reload}>
          {plan.reload ? t('plan.reloadYes') : t('plan.reloadNo')}
          {plan.reload && changed === 0 ? ` ${t('plan.reloadUnchanged')}` : ''}
        </p>
        <p data-testid="plan-certificate">{t(CERTIFICATE_WORDS[plan.certificate])}</p>
        <p className="text-muted-foreground [overflow-wrap:anywhere]">
          {t('plan.target', { target: plan.targetServer })}
        </p>
      </div>
      <section className="grid min-w-0 gap-2" aria-labelledby="plan-files-title">
        <h3 id="plan-files-title" className="text-sm font-semibold">
          {t('plan.files')}
        </h3>
        <ul className="grid min-w-0 gap-3">
          {plan.files.map((file) => (
            <PlannedFile key={file.path} file={file} />
          ))}
        </ul>
      </section>
      <section className="grid min-w-0 gap-2" aria-labelledby="plan-commands-title">
        <h3 id="plan-commands-title" className="text-sm font-semibold">
          {t('plan.commands')}
        </h3>
        <ol className="grid min-w-0 list-decimal gap-2 pl-5 text-sm" data-testid="plan-commands">
          {plan.commands.map((command, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same command may run twice, in order
            <li key={i} data-kind={command.kind}>
              <span>{t(`plan.command.${command.kind}`)}</span>
              <code className="mt-0.5 block text-xs text-muted-foreground [overflow-wrap:anywhere]">
                {command.command}
              </code>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
