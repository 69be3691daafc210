import type { LucideIcon } from 'lucide-react';
import type * as React from 'react';
import { Card } from './card';

/** A list with nothing in it yet: an icon, what is missing, what it is for, and an action. */
export function EmptyState({
  icon: Icon,
  title,
  description,
  heading: Heading = 'h3',
  testId,
  children,
}: {
  icon: LucideIcon;
  title: string;
  description: string;
  /** The heading's level where the list sits in the page's outline. */
  heading?: 'h2' | 'h3';
  testId: string;
  children?: React.ReactNode;
}) {
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center" data-testid={testId}>
      <Icon className="size-10 text-muted-foreground" aria-hidden="true" />
      <Heading className="text-lg font-semibold">{title}</Heading>
      <p className="max-w-lg text-sm text-muted-foreground">{description}</p>
      {children}
    </Card>
  );
}
