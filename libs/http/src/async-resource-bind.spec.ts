import { AsyncLocalStorage, AsyncResource, executionAsyncId } from 'node:async_hooks';
import { useBindWithoutDeprecatedProperty } from './async-resource-bind';

describe('AsyncResource#bind without the deprecated asyncResource property', () => {
  beforeAll(() => useBindWithoutDeprecatedProperty());

  it('binds without attaching the asyncResource property', () => {
    const bound = new AsyncResource('test').bind(() => 1);
    expect('asyncResource' in bound).toBe(false);
    expect(bound()).toBe(1);
  });

  it("runs the function in the resource's async scope, with the context it was created in", async () => {
    const storage = new AsyncLocalStorage<string>();
    const { resource, bound } = storage.run('request-1', () => {
      const resource = new AsyncResource('test');
      return { resource, bound: resource.bind(() => ({ store: storage.getStore(), asyncId: executionAsyncId() })) };
    });
    // Called later, from outside the context, as Fastify calls its parser's callback.
    const seen = await new Promise<{ store?: string; asyncId: number }>((resolve) =>
      setImmediate(() => resolve(bound())),
    );
    expect(seen).toEqual({ store: 'request-1', asyncId: resource.asyncId() });
  });

  it('passes the arguments and the caller’s this, or the thisArg given, and keeps the length', () => {
    function describeCall(this: unknown, a: number, b: number) {
      return { self: this, sum: a + b };
    }
    const resource = new AsyncResource('test');
    const owner = { name: 'owner' };
    const method = resource.bind(describeCall);
    expect(method.length).toBe(2);
    expect(method.call(owner, 2, 3)).toEqual({ self: owner, sum: 5 });
    // Node's bind takes a thisArg; @types/node declares the first parameter only.
    const bindWithThis = resource.bind as (fn: typeof describeCall, thisArg: unknown) => typeof describeCall;
    const fixed = bindWithThis.call(resource, describeCall, owner);
    expect(fixed.length).toBe(2);
    expect(fixed.call({ other: true }, 1, 1)).toEqual({ self: owner, sum: 2 });
  });

  it('carries the context of the bind site through the static AsyncResource.bind, as Nest’s interceptors use it', async () => {
    const storage = new AsyncLocalStorage<string>();
    const bound = storage.run('request-2', () => AsyncResource.bind(() => storage.getStore()));
    expect('asyncResource' in bound).toBe(false);
    await expect(new Promise((resolve) => setImmediate(() => resolve(bound())))).resolves.toBe('request-2');
  });

  it('refuses what is not a function as Node does', () => {
    expect(() => new AsyncResource('test').bind(42 as unknown as () => void)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
  });

  it('installs once however often the apps boot', () => {
    const installed = AsyncResource.prototype.bind;
    useBindWithoutDeprecatedProperty();
    expect(AsyncResource.prototype.bind).toBe(installed);
  });
});
