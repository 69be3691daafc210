/**
 * The one address classifier (docs/SECURITY.md, "Which addresses Portico connects to"): what
 * range an IPv4 or IPv6 address is in. SSH targets (reachability.ts), webhook URLs and the
 * destination probe each apply their own rule to its answer.
 *
 * An IPv6 address that carries an IPv4 address is judged by the IPv4 address it carries, so
 * `::ffff:127.0.0.1`, `::7f00:1` or `64:ff9b::7f00:1` is loopback like 127.0.0.1:
 * - IPv4-mapped `::ffff:0:0/96` and IPv4-translated `::ffff:0:0:0/96`: the last 32 bits;
 * - IPv4-compatible `::/96` (deprecated; `::` and `::1` are themselves): the last 32 bits;
 * - NAT64 `64:ff9b::/96` (RFC 6052): the last 32 bits; the local-use `64:ff9b:1::/48`
 *   (RFC 8215): the last 32 bits too (where DNS64 puts them by default), and private at best:
 *   it is a local network's translator, and may carry the address elsewhere;
 * - 6to4 `2002::/16`: bits 16 to 47;
 * - Teredo `2001::/32`: the client's address, the last 32 bits inverted.
 */
export type TAddressRange =
  | 'unspecified'
  | 'loopback'
  | 'linkLocal'
  | 'multicast'
  | 'reserved'
  | 'private'
  | 'public';

/** The four bytes of a dotted-decimal IPv4 address, or undefined. */
function ipv4Bytes(value: string): number[] | undefined {
  const parts = value.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

/** The sixteen bytes of an IPv6 address (`::`, a trailing dotted IPv4, a %zone), or undefined. */
export function ipv6Bytes(raw: string): number[] | undefined {
  const value = raw.replace(/%[^%]*$/, '');
  if (!/^[0-9a-f:.]+$/i.test(value) || value.split('::').length > 2) return undefined;
  const groups: number[] = [];
  const read = (part: string): boolean => {
    if (part === '') return true;
    const pieces = part.split(':');
    for (const [i, piece] of pieces.entries()) {
      if (piece.includes('.')) {
        const v4 = i === pieces.length - 1 ? ipv4Bytes(piece) : undefined;
        if (!v4) return false;
        groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) {
        groups.push(Number.parseInt(piece, 16));
      } else {
        return false;
      }
    }
    return true;
  };
  const [head = '', tail] = value.split('::');
  if (!read(head)) return undefined;
  const headCount = groups.length;
  if (tail !== undefined) {
    if (!read(tail)) return undefined;
    const tailGroups = groups.splice(headCount);
    if (headCount + tailGroups.length > 7) return undefined;
    groups.push(...new Array(8 - headCount - tailGroups.length).fill(0), ...tailGroups);
  }
  if (groups.length !== 8) return undefined;
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

function ipv4Range([a = 0, b = 0, c = 0]: number[]): TAddressRange {
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'linkLocal';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  const isPrivate =
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 192 && b === 0 && c === 0) ||
    (a === 192 && b === 0 && c === 2) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113);
  return isPrivate ? 'private' : 'public';
}

const allZero = (bytes: number[]) => bytes.every((b) => b === 0);

const group = (bytes: number[], i: number) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!;
const groupsAre = (bytes: number[], values: number[]) =>
  values.every((value, i) => group(bytes, i) === value);

/** 64:ff9b:1::/48, NAT64 for a local network (RFC 8215). */
const isLocalNat64 = (bytes: number[]) => groupsAre(bytes, [0x64, 0xff9b, 1]);

/** The IPv4 address an IPv6 address carries, if it carries one. */
function embeddedIpv4(bytes: number[]): number[] | undefined {
  const last32 = bytes.slice(12, 16);
  // ::a.b.c.d (compatible), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated), 64:ff9b::a.b.c.d
  if (
    groupsAre(bytes, [0, 0, 0, 0, 0, 0]) ||
    groupsAre(bytes, [0, 0, 0, 0, 0, 0xffff]) ||
    groupsAre(bytes, [0, 0, 0, 0, 0xffff, 0]) ||
    groupsAre(bytes, [0x64, 0xff9b, 0, 0, 0, 0])
  ) {
    return last32;
  }
  // Read at the /96 position, the one DNS64 synthesizes by default.
  if (isLocalNat64(bytes)) return last32;
  if (group(bytes, 0) === 0x2002) return bytes.slice(2, 6);
  if (groupsAre(bytes, [0x2001, 0])) return last32.map((b) => b ^ 0xff);
  return undefined;
}

function ipv6Range(bytes: number[]): TAddressRange {
  if (allZero(bytes)) return 'unspecified';
  if (allZero(bytes.slice(0, 15)) && bytes[15] === 1) return 'loopback';
  const carried = embeddedIpv4(bytes);
  if (carried) {
    const range = ipv4Range(carried);
    // The local-use NAT64 prefix is a local network's translator: private at best.
    return isLocalNat64(bytes) && range === 'public' ? 'private' : range;
  }
  const [b0 = 0, b1 = 0] = bytes;
  if (b0 === 0xfe && (b1 & 0xc0) === 0x80) return 'linkLocal';
  if (b0 === 0xff) return 'multicast';
  if ((b0 & 0xfe) === 0xfc) return 'private';
  if (groupsAre(bytes, [0x2001, 0x0db8])) return 'private';
  return 'public';
}

/** The range of an IPv4 (dotted decimal) or IPv6 address; undefined when it is neither. */
export function addressRange(address: string): TAddressRange | undefined {
  const v4 = ipv4Bytes(address);
  if (v4) return ipv4Range(v4);
  const v6 = ipv6Bytes(address);
  return v6 ? ipv6Range(v6) : undefined;
}

/**
 * The coarse class webhooks and the destination probe go by: `forbidden` (never: this network,
 * link-local with the cloud metadata endpoint, multicast, reserved, and anything that is not an
 * address), `private` (loopback, private, carrier-grade NAT, benchmarking and documentation
 * ranges, IPv6 unique-local) or `public`.
 */
export type TAddressClass = 'public' | 'private' | 'forbidden';

export function addressClass(address: string): TAddressClass {
  const range = addressRange(address);
  if (range === 'public') return 'public';
  if (range === 'private' || range === 'loopback') return 'private';
  return 'forbidden';
}
