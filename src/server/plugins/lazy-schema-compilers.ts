/**
 * Fastify's schema compilers (Ajv with its formats for request validation, fast-json-stringify
 * for response serialization), loaded and run when a route with a schema first validates or
 * serializes instead of at start: Fastify requires both libraries when the instance is created
 * and compiles every route's schemas before it listens, a tenth of a cold start here, for a few
 * routes that are rarely called (ADR 0108). The compiled functions are Fastify's own defaults.
 *
 * The one difference from the defaults: Fastify treats these as custom compilers, so a route's
 * `headers` schema is compiled as written (its property names are not lower-cased for it).
 */
import { createRequire } from 'node:module'
import type { FastifyServerOptions } from 'fastify'
import type AjvCompiler from '@fastify/ajv-compiler'
import type SerializerSelector from '@fastify/fast-json-stringify-compiler'

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>
type ValidatorFactory = NonNullable<Factories['buildValidator']>
type SerializerFactory = NonNullable<Factories['buildSerializer']>
type Validate = ((data: unknown) => unknown) & { errors?: unknown }

const require = createRequire(import.meta.url)

/** Defers `compile(route)` until the compiled function is first called. */
function deferred<R, F extends (...args: never[]) => unknown>(compile: (route: R) => F) {
  return (route: R) => {
    let compiled: F | null = null
    const run = ((...args: Parameters<F>) => {
      compiled ??= compile(route)
      const result = compiled(...args)
      // Ajv reports a failed validation's errors on the function: Fastify reads them from ours.
      ;(run as unknown as Validate).errors = (compiled as unknown as Validate).errors
      return result
    }) as unknown as F
    return run
  }
}

export const lazyValidatorFactory = ((externalSchemas: unknown, options?: unknown) => {
  let compiler: ReturnType<ReturnType<typeof AjvCompiler>> | null = null
  const real = () =>
    (compiler ??= (require('@fastify/ajv-compiler') as typeof AjvCompiler)()(
      externalSchemas as never,
      options as never,
    ))
  return deferred((route: unknown) => real()(route as never) as Validate)
}) as unknown as ValidatorFactory

export const lazySerializerFactory: SerializerFactory = (externalSchemas, options) => {
  let compiler: ReturnType<ReturnType<typeof SerializerSelector>> | null = null
  const real = () =>
    (compiler ??= (require('@fastify/fast-json-stringify-compiler') as typeof SerializerSelector)()(
      externalSchemas,
      options as never,
    ))
  return deferred((route: Parameters<ReturnType<SerializerFactory>>[0]) => real()(route as never)) as never
}
