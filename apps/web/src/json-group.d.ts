// Imports of part of a catalog (build/json-group.ts).
declare module '*.json?group=certificate' {
  const group: Record<string, unknown>;
  export default group;
}
declare module '*.json?group=settings' {
  const group: Record<string, unknown>;
  export default group;
}
declare module '*.json?group=plan' {
  const group: Record<string, unknown>;
  export default group;
}
declare module '*.json?group=options' {
  const group: Record<string, unknown>;
  export default group;
}
declare module '*.json?group=lists' {
  const group: Record<string, unknown>;
  export default group;
}
declare module '*.json?group=servers' {
  const group: Record<string, unknown>;
  export default group;
}
declare module '*.json?group=admin' {
  const group: Record<string, unknown>;
  export default group;
}
declare module '*.json?without=certificate,settings,plan,options,lists,servers,admin' {
  const catalog: Record<string, unknown>;
  export default catalog;
}
