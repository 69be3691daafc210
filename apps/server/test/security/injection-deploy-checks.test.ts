// Injection, the last line of defence and its agreement with the first: the allowlist
// checks that run right before a value reaches an nginx file or a remote command
// (deploy/validate.ts, the site renderers) refuse every corpus value without echoing it, and
// whatever the API's schemas accept, those checks accept too, so nothing the API stores can stop
// a deployment half-way (or slip into one).
import { ZDestinationInput } from '@portico/shared/admin/destinations';
import {
  ZCertificateEmail,
  ZDomain,
  ZEditProxyInput,
  ZPort,
  ZServerIp,
  ZSshUser,
  ZTargetServer,
} from '@portico/shared/proxy/schemas';
import { trimSpaces } from '@portico/shared/validation/rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { renderFinalSite, renderHttpSite } from '../../src/deploy/nginx-site';
import {
  assertDomain,
  assertEmail,
  assertIpv4,
  assertPort,
  assertSshUser,
  DeployValidationError,
  normalizeTarget,
} from '../../src/deploy/validate';
import { nameProblem } from '../../src/modules/scripts/script-file';
import {
  ALPHABETS,
  explicitValues,
  plantedValues,
  shown,
  type TFieldKind,
} from './injection-api-helpers';
import {
  fragmentsOutside,
  validDomain,
  validEmail,
  validIpv4,
  validSshUser,
  validTarget,
} from './injection-corpus';

interface TField {
  name: string;
  kind: TFieldKind;
  valid: fc.Arbitrary<string>;
  schema: z.ZodType;
  deploy: (value: unknown) => unknown;
}

const edit = ZEditProxyInput.shape;

const FIELDS: TField[] = [
  { name: 'domain', kind: 'domain', valid: validDomain, schema: ZDomain, deploy: assertDomain },
  { name: 'serverIp', kind: 'host', valid: validIpv4, schema: ZServerIp, deploy: assertIpv4 },
  {
    name: 'sshUser',
    kind: 'sshUser',
    valid: validSshUser,
    schema: ZSshUser,
    deploy: assertSshUser,
  },
  { name: 'sshPort', kind: 'port', valid: fc.constant('2222'), schema: ZPort, deploy: assertPort },
  {
    name: 'email',
    kind: 'email',
    valid: validEmail,
    schema: ZCertificateEmail,
    deploy: assertEmail,
  },
  {
    name: 'targetServer',
    kind: 'target',
    valid: validTarget,
    schema: ZTargetServer,
    deploy: (v) => normalizeTarget(v),
  },
  // The edit dialog's own rules (other messages, same allowlists); its serverIp also takes host
  // names, which the engine resolves to IPv4 before its own check (deploy/engine/server-address.ts), so it is not listed here.
  {
    name: 'edit domain',
    kind: 'domain',
    valid: validDomain,
    schema: edit.domain,
    deploy: assertDomain,
  },
  {
    name: 'edit targetServer',
    kind: 'target',
    valid: validTarget,
    schema: edit.targetServer,
    deploy: (v) => normalizeTarget(v),
  },
  {
    name: 'edit sshUser',
    kind: 'sshUser',
    valid: validSshUser,
    schema: edit.sshUser,
    deploy: assertSshUser,
  },
  {
    name: 'edit sshPort',
    kind: 'port',
    valid: fc.constant('2222'),
    schema: edit.sshPort,
    deploy: assertPort,
  },
  {
    name: 'destination endpoint',
    kind: 'target',
    valid: validTarget,
    schema: ZDestinationInput.shape.endpoint,
    deploy: (v) => normalizeTarget(v),
  },
];

/** Valid values, planted corpus values and the hand-picked ones, all mixed. */
function anyValue(f: TField): fc.Arbitrary<unknown> {
  return fc.oneof(
    f.valid,
    plantedValues(f.kind, f.valid).map((p) => p.value),
    fc.constantFrom(...explicitValues(f.kind)),
  );
}

function refusal(work: () => unknown): DeployValidationError | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    if (error instanceof DeployValidationError) return error;
    throw error;
  }
}

describe('injection: the deploy-time checks', () => {
  for (const f of FIELDS) {
    it(`${f.name}: every planted corpus value is refused, and the refusal does not echo it`, () => {
      fc.assert(
        fc.property(plantedValues(f.kind, f.valid), ({ value, fragment }) => {
          const error = refusal(() => f.deploy(value));
          expect(error, `${f.name}=${shown(value)} passed`).toBeDefined();
          // A bare space, dash or dot is part of any sentence; longer fragments must not appear.
          if (fragment.trim().length > 1) expect(error!.message).not.toContain(fragment.trim());
        }),
        { numRuns: 300 },
      );
    });

    it(`${f.name}: whatever the API schema accepts, the deploy check accepts`, () => {
      fc.assert(
        fc.property(anyValue(f), (value) => {
          const parsed = f.schema.safeParse(value);
          if (!parsed.success) return;
          const error = refusal(() => f.deploy(parsed.data));
          expect(error?.message, `API accepted ${f.name}=${shown(value)}`).toBeUndefined();
        }),
        { numRuns: 500 },
      );
    });
  }

  // The API tests sample the corpus over HTTP; here every fragment meets every schema, at the
  // start, in the middle and at the end of a fixed valid value (a plain space only inside: the
  // API trims plain spaces at the edges; every other character is refused there too), so no
  // fragment is left out by chance.
  it('every API schema refuses every corpus fragment, wherever it is planted', () => {
    const samples: Record<TFieldKind, string> = {
      domain: 'app.example.com',
      host: '203.0.113.10',
      sshUser: 'deploy',
      port: '2222',
      email: 'ops@example.com',
      target: 'http://10.0.0.5:8080/app',
      scriptName: 'setup.sh',
    };
    let checked = 0;
    for (const f of FIELDS) {
      const base = samples[f.kind];
      for (const fragment of fragmentsOutside(ALPHABETS[f.kind])) {
        const middle = base.length >> 1;
        const spots = trimSpaces(fragment) === fragment ? [0, middle, base.length] : [middle];
        for (const at of spots) {
          const value = base.slice(0, at) + fragment + base.slice(at);
          expect(f.schema.safeParse(value).success, `${f.name}=${shown(value)}`).toBe(false);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('the script name check refuses every corpus fragment, wherever it is planted', () => {
    const base = 'setup.sh';
    for (const fragment of fragmentsOutside(ALPHABETS.scriptName)) {
      for (const at of [0, 3, 5, base.length]) {
        const name = base.slice(0, at) + fragment + base.slice(at);
        expect(nameProblem(name), shown(name)).toBeDefined();
      }
    }
  });

  it('the renderers refuse a planted domain or target and return no text', () => {
    const domains = plantedValues('domain', validDomain).map((p) => ({
      domain: p.value,
      target: 'http://10.0.0.5:8080',
    }));
    const targets = plantedValues('target', validTarget).map((p) => ({
      domain: 'site.example.com',
      target: p.value,
    }));
    fc.assert(
      fc.property(fc.oneof(domains, targets), (input) => {
        expect(
          refusal(() => renderHttpSite(input)),
          shown(input),
        ).toBeDefined();
        expect(
          refusal(() => renderFinalSite(input)),
          shown(input),
        ).toBeDefined();
      }),
      { numRuns: 300 },
    );
  });
});
