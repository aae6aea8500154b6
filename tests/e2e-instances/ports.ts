/**
 * The two-instance test's ports, all derived from E2E_PORT unless set one by one, so two runs
 * with different E2E_PORTs (CI's 4173 and a developer's) never take each other's ports:
 * instances E2E_PORT and E2E_PORT_2 (+10), the S3 server E2E_S3_PORT (+20), the one payment
 * simulator service both instances share E2E_SIMULATOR_PORT (+30; ADR 0195).
 */
const first = Number(process.env.E2E_PORT ?? 4173)

export const INSTANCE_PORTS = [first, Number(process.env.E2E_PORT_2 ?? first + 10)] as const
/** The simulator service (`npm run simulators`) both instances point at by URL */
export const SIMULATOR_PORT = Number(process.env.E2E_SIMULATOR_PORT ?? first + 30)
/** The origin the instances and the browser reach the simulator service at */
export const SIMULATOR_URL = `http://127.0.0.1:${SIMULATOR_PORT}`
/** The S3-compatible server (s3rver) both instances keep their uploads in */
export const S3_PORT = Number(process.env.E2E_S3_PORT ?? first + 20)
export const S3_BUCKET = 'shop-e2e-uploads'
