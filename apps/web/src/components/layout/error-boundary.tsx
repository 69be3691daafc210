import { RotateCwIcon, TriangleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

type TProps = {
  /** Shown instead of the children once they threw (a chunk that did not load, a bug). */
  fallback: React.ReactNode;
  /** A new value clears the failure, e.g. the path, so another screen can be tried. */
  resetKey?: unknown;
  children: React.ReactNode;
};

/**
 * Keeps a failure inside the part that failed: code fetched on demand can fail to arrive (the
 * connection dropped, or Portico was updated and the old file is gone), and the rest of the
 * page must stay usable.
 */
export class ErrorBoundary extends React.Component<TProps, { failed: boolean; key: unknown }> {
  override state = { failed: false, key: this.props.resetKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: TProps, state: { failed: boolean; key: unknown }) {
    return props.resetKey === state.key ? null : { failed: false, key: props.resetKey };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * In the main area when a screen could not be shown (the header stays usable), or, with
 * `onRetry`, when Portico did not answer who is signed in: a signed-in user is not shown the
 * landing page as if signed out, and tries again without reloading.
 */
export function ScreenFailed({ onRetry }: { onRetry?: () => void }) {
  const { t } = useTranslation();
  const texts = onRetry ? 'common.sessionFailed' : 'common.screenFailed';
  return (
    <div
      className="mx-auto w-full max-w-xl px-4 py-16"
      data-testid={onRetry ? 'session-failed' : 'screen-failed'}
    >
      <Alert variant="destructive">
        <TriangleAlertIcon aria-hidden="true" />
        <AlertTitle>{t(`${texts}.title`)}</AlertTitle>
        <AlertDescription>
          <p>{t(`${texts}.description`)}</p>
          <Button
            variant="outline"
            size="sm"
            className="mt-3"
            onClick={onRetry ?? (() => window.location.reload())}
          >
            <RotateCwIcon aria-hidden="true" />
            {t(`${texts}.retry`)}
          </Button>
        </AlertDescription>
      </Alert>
    </div>
  );
}
