// Imports of part of a catalog (build/json-group.ts).
declare module '*.json?group=certificate' {
  const group: Record<string, unknown>;
  export default group;
}
declare module '*.json?group=settings' {
  const group: Record<string, unknown>;
  export default group;
}
declare module '*.json?group=servers' {
  const group: Record<string, unknown>;
  export default group;
}
declare module '*.json?without=certificate,settings,servers' {
  const catalog: Record<string, unknown>;
  export default catalog;
}
