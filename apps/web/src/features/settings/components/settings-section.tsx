import type { TPublicUser } from '@portico/shared/auth/schemas';
import type * as React from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/** What the settings page gives each of its sections. */
export type TSettingsSectionProps = { user: TPublicUser };

/** One section of the settings page: a card with its heading, reachable as /settings#<id>. */
export function SettingsSection({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  const headingId = `settings-${id}-title`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="scroll-mt-20"
      data-testid={`settings-${id}`}
    >
      <Card>
        <CardHeader>
          <CardTitle id={headingId}>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">{children}</CardContent>
      </Card>
    </section>
  );
}
