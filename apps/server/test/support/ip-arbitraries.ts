import fc from 'fast-check';

/** 128 bits as eight hex groups, written in full or with the longest zero run as `::`. */
export function formatIpv6(bits: bigint, compress: boolean): string {
  const groups = Array.from({ length: 8 }, (_, i) =>
    ((bits >> BigInt(112 - 16 * i)) & 0xffffn).toString(16),
  );
  if (!compress) return groups.join(':');
  let best = { at: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best.length) best = { at: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  if (best.length < 2) return groups.join(':');
  const head = groups.slice(0, best.at).join(':');
  const tail = groups.slice(best.at + best.length).join(':');
  return `${head}::${tail}`;
}

const bits128 = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n });

/** An IPv6 network (host bits cleared), an address alone when the prefix is 128. */
export const ipv6Network = fc
  .record({
    bits: bits128,
    prefix: fc.integer({ min: 0, max: 128 }),
    compress: fc.boolean(),
    upper: fc.boolean(),
  })
  .map(({ bits, prefix, compress, upper }) => {
    const net = bits & ~((1n << BigInt(128 - prefix)) - 1n);
    const written = formatIpv6(net, compress);
    const address = upper ? written.toUpperCase() : written;
    return prefix === 128 ? address : `${address}/${prefix}`;
  });

/** An IPv6 network with at least one host bit set past its prefix. */
export const ipv6WithHostBits = fc
  .record({ bits: bits128, prefix: fc.integer({ min: 0, max: 127 }), compress: fc.boolean() })
  .filter(({ bits, prefix }) => (bits & ((1n << BigInt(128 - prefix)) - 1n)) !== 0n)
  .map(({ bits, prefix, compress }) => `${formatIpv6(bits, compress)}/${prefix}`);
