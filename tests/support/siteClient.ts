import { expect } from 'vitest'
import { NS } from './api'
import type { Instance } from './secondInstance'

export type SiteCall = { method?: string; json?: unknown; body?: BodyInit; token?: string | null }

/**
 * Calls to a live calendar site an import copies from (a second instance), as its first user once
 * `signIn` made them, unless a call gives its own token (`null`: anonymous). `site` is read at each
 * call, so the client can be made before the instance starts.
 */
export function siteClient(site: () => Instance) {
  let siteToken: string | undefined

  async function onSite(path: string, call: SiteCall = {}): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = {}
    const token = call.token === null ? undefined : (call.token ?? siteToken)
    if (token) headers.Authorization = `JWT ${token}`
    if (call.json !== undefined) headers['Content-Type'] = 'application/json'
    const response = await fetch(site().base + path, {
      method: call.method ?? 'GET',
      headers,
      body: call.json !== undefined ? JSON.stringify(call.json) : call.body,
    })
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : null }
  }

  /** A write to the site's namespace that must succeed; its answer's body. */
  async function write(path: string, json: Record<string, unknown>, method = 'POST'): Promise<any> {
    const reply = await onSite(`${NS}${path}`, { method, json })
    expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
    return reply.body
  }

  /** Registers the site's first user and signs in as them; their token. */
  async function signIn(account: { email: string; password: string }): Promise<string> {
    const register = await onSite('/api/users/first-register', {
      method: 'POST',
      json: account,
      token: null,
    })
    expect(register.status, JSON.stringify(register.body)).toBeLessThan(300)
    const login = await onSite('/api/users/login', { method: 'POST', json: account, token: null })
    siteToken = login.body.token as string
    return siteToken
  }

  return { onSite, write, signIn }
}
