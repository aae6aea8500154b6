/** The address a site is visited at on this server: http://<host>:<port> (IPv6 in brackets). */
export function siteAddress(host: string, port: number): string {
  const name = host.includes(':') ? `[${host}]` : host
  return `http://${name}${port === 80 ? '' : `:${port}`}`
}
