import { ArrowLeftIcon } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'wouter';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useAdminTexts } from '@/lib/use-group-texts';

/** Frame of an admin screen: back to home, heading, description. */
export function AdminPage({
  title,
  description,
  actions,
  children,
  testId,
}: {
  title: string;
  description: string;
  actions?: React.ReactNode;
  children: React.ReactNode;
  testId: string;
}) {
  const { t } = useAdminTexts();
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-8 sm:px-6" data-testid={testId}>
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link href="/">
            <ArrowLeftIcon aria-hidden="true" />
            {t('admin.nav.back')}
          </Link>
        </Button>
      </div>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          <p className="mt-1 text-muted-foreground">{description}</p>
        </div>
        {actions}
      </div>
      {children}
    </div>
  );
}

/**
 * The states of an admin list: two skeleton rows while loading, the screen's error, its empty
 * text, else the list drawn from the loaded data.
 */
export function QueryStates<T>({
  query,
  rowClassName,
  rows = 2,
  skeletonTestId,
  errorText,
  emptyText,
  isEmpty,
  children,
}: {
  query: { data: T | undefined; isPending: boolean; isError: boolean };
  /** The skeleton rows' height, close to a real row's. */
  rowClassName: string;
  /** How many skeleton rows stand in while loading. */
  rows?: number;
  skeletonTestId?: string;
  errorText: string;
  emptyText?: string;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => React.ReactNode;
}) {
  if (query.isPending) {
    return (
      <div className="grid gap-2">
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            key={i}
            className={`${rowClassName} w-full`}
            data-testid={skeletonTestId}
          />
        ))}
      </div>
    );
  }
  if (query.isError || query.data === undefined) {
    return (
      <Alert variant="destructive">
        <AlertDescription>{errorText}</AlertDescription>
      </Alert>
    );
  }
  if (emptyText && isEmpty?.(query.data)) {
    return <p className="text-sm text-muted-foreground">{emptyText}</p>;
  }
  return children(query.data);
}
