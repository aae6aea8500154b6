/**
 * Where one browser-test server keeps its files: the embedded database, the captured e-mails and
 * the ERP's API token, in a folder of its port's own, so two runs (CI runs the suite in two lanes
 * side by side, each with its own server) never share a database or a mail file. The config and
 * the specs both read these.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173)
export const E2E_DIR = `var/e2e-${E2E_PORT}`
export const MAIL_FILE = `${E2E_DIR}/mail.jsonl`
export const ADMIN_TOKEN_FILE = `${E2E_DIR}/admin-token`
