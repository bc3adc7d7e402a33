/**
 * A stand-in for an object a `before` hook makes later. A suite names it once, at describe time,
 * and its tests read it as if it were the object itself (`server.url`, `fx.token`), so setup can
 * live in one fixture instead of `let` variables assigned in every file's own hooks. Reading it
 * before the hook has run fails with a message naming it, instead of a TypeError on undefined.
 */
export function lateBound<T extends object>(current: () => T | undefined, name: string): T {
  const target = (): T => {
    const value = current();
    if (value === undefined) throw new Error(`${name} is read before the before() hook that makes it has run`);
    return value;
  };
  // Every trap forwards, so spreading, `in` and assignment behave as on the object itself.
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key),
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(target(), key),
  });
}
