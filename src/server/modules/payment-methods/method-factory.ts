/**
 * What each provider method's folder exports for the registry (register.ts): its `PaymentMethod`
 * built from the app (app.payments, app.db…), or null when its provider is not configured. Kept
 * apart from register.ts so that a method's file and the registry do not import each other.
 */
import type { FastifyInstance } from 'fastify'
import type { PaymentMethod } from '../payments/payment-methods.ts'

export type CheckoutMethodFactory = (app: FastifyInstance) => PaymentMethod | null
