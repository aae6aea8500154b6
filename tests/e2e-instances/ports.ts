/**
 * The two-instance test's ports, all derived from E2E_PORT unless set one by one, so two runs
 * with different E2E_PORTs (CI's 4173 and a developer's) never take each other's ports.
 */
const first = Number(process.env.E2E_PORT ?? 4173)
const simulator = Number(process.env.PAYMENTS_SIMULATOR_PORT ?? 3100)

export const INSTANCE_PORTS = [first, Number(process.env.E2E_PORT_2 ?? first + 10)] as const
export const SIMULATOR_PORTS = [
  simulator,
  Number(process.env.PAYMENTS_SIMULATOR_PORT_2 ?? simulator + 10),
] as const
/** The S3-compatible server (s3rver) both instances keep their uploads in */
export const S3_PORT = Number(process.env.E2E_S3_PORT ?? first + 20)
export const S3_BUCKET = 'shop-e2e-uploads'
