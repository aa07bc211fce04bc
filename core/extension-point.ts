/**
 * A typed extension point owned by one plugin (Backstage style): the owner provides an
 * implementation in register(); others reach it with ctx.use(point) in init(). Core creates
 * the points' identity only; what an implementation offers is the owner's typed interface.
 */
export interface ExtensionPoint<T> {
  readonly id: string;
  readonly __type?: T;
}

export function createExtensionPoint<T>(id: string): ExtensionPoint<T> {
  return { id };
}
