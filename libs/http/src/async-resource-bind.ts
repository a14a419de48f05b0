import { AsyncResource } from 'node:async_hooks';

type Bind = (this: AsyncResource, fn: (...args: unknown[]) => unknown, thisArg?: unknown) => unknown;

const nativeBind: Bind = AsyncResource.prototype.bind;

/**
 * `AsyncResource#bind` as Node.js has it since the bound function's `asyncResource` property
 * (DEP0172) reached its end of life: the same call in the resource's async scope, without the
 * property. Node 20 still adds it, through two `util.deprecate` wrappers per bind whose prototypes it
 * rewrites: 14–17 µs per call against 0.1 µs, and Fastify (once per request with a body) and Nest
 * (once per interceptor and once for the handler behind them) bind on every request
 * (docs/adr/0020-async-resource-bind.md).
 */
function bindInScope(this: AsyncResource, fn: (...args: unknown[]) => unknown, thisArg?: unknown): unknown {
  // The native call throws Node's own ERR_INVALID_ARG_TYPE for what is not a function.
  if (typeof fn !== 'function') return nativeBind.call(this, fn, thisArg);
  const resource = this;
  const bound =
    thisArg === undefined
      ? function (this: unknown, ...args: unknown[]) {
          return resource.runInAsyncScope(fn, this, ...args);
        }
      : resource.runInAsyncScope.bind(resource, fn, thisArg);
  Object.defineProperty(bound, 'length', { configurable: true, enumerable: false, writable: false, value: fn.length });
  return bound;
}

/** Whether this runtime's bind still attaches the deprecated property (and so pays for it). */
const bindAddsDeprecatedProperty = (): boolean =>
  'asyncResource' in (nativeBind.call(new AsyncResource('agentwatch-probe'), () => undefined) as object);

/**
 * Replaces `AsyncResource.prototype.bind` (and with it the static `AsyncResource.bind`, which calls
 * it) by bindInScope, on a runtime that still attaches the deprecated property. Nothing in the
 * dependency tree reads that property. Idempotent: every app's boot calls it.
 */
export function useBindWithoutDeprecatedProperty(): void {
  if (AsyncResource.prototype.bind === (bindInScope as unknown) || !bindAddsDeprecatedProperty()) return;
  AsyncResource.prototype.bind = bindInScope as typeof AsyncResource.prototype.bind;
}
