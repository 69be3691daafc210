/**
 * `instance` with `overrides` in place of some of its members. Every other member is read on
 * the instance itself and its methods run bound to it: PGlite's methods use private fields, so
 * they fail when called on a proxy.
 */
export function withOverrides<T extends object>(
  instance: T,
  overrides: Record<PropertyKey, unknown>,
): T {
  return new Proxy(instance, {
    get(target, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property];
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
