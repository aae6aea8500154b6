/**
 * JSON POSTs outside Inertia visits (newsletter, content forms): the XSRF-TOKEN cookie is sent
 * back as the X-XSRF-TOKEN header, like Inertia's own client does.
 */
export function xsrfToken(): string {
  const match = document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/)
  return match ? decodeURIComponent(match[1] ?? '') : ''
}

export interface JsonResult {
  ok: boolean
  status: number
  body: { message?: string; errors?: Record<string, string> } | null
}

export async function postJson(url: string, data: unknown): Promise<JsonResult> {
  const res = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-xsrf-token': xsrfToken(),
    },
    body: JSON.stringify(data),
  })
  const body = (await res.json().catch(() => null)) as JsonResult['body']
  return { ok: res.ok, status: res.status, body }
}
