import * as React from 'react';

// Loaded when a wildcard is shown: imported statically by the list, the details and the wizard,
// its field made the bundler regroup the landing page's chunks past its budget
// (e2e/first-paint.spec.ts).
const Field = React.lazy(() =>
  import('./wildcard-address').then((m) => ({ default: m.WildcardOpen })),
);

/** WildcardOpen (wildcard-address.tsx), fetched with the first wildcard a screen shows. */
export function WildcardOpen(props: { domain: string; idPrefix: string }) {
  return (
    <React.Suspense fallback={null}>
      <Field {...props} />
    </React.Suspense>
  );
}
