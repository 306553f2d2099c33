/**
 * What a running app allocates, by the place that allocates it: V8's sampling heap profiler, asked
 * through the app's inspector to keep the objects garbage collection has already taken, so that it
 * counts what a request allocates and drops (the work of the collector), not only what stays.
 * For `npm run bench:profile -- … --allocations` (bench/profile.ts).
 */
import WebSocket from 'ws'

export type AllocationNode = {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  selfSize: number
  children: AllocationNode[]
}

/** One sample in 32 KiB allocated, on average: enough for a few seconds' load, little overhead. */
const SAMPLING_INTERVAL = 32 * 1024

/** Starts sampling on the app whose inspector listens on `port`; `stop` gives the tree of sampled bytes. */
export async function sampleAllocations(
  port: number,
): Promise<{ stop: () => Promise<AllocationNode> }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string
  }[]
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  let next = 0
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++next
      const answer = (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data)) as {
          id?: number
          result?: Record<string, unknown>
          error?: { message: string }
        }
        if (message.id !== id) return
        socket.off('message', answer)
        if (message.error) reject(new Error(`${method}: ${message.error.message}`))
        else resolve(message.result ?? {})
      }
      socket.on('message', answer)
      socket.send(JSON.stringify({ id, method, params }))
    })
  await send('HeapProfiler.enable')
  await send('HeapProfiler.startSampling', {
    samplingInterval: SAMPLING_INTERVAL,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  })
  return {
    stop: async () => {
      const { profile } = (await send('HeapProfiler.stopSampling')) as {
        profile: { head: AllocationNode }
      }
      socket.close()
      return profile.head
    },
  }
}

/** Bytes allocated by each place (`place` names a call frame), the tree's own sizes added up. */
export function bytesByPlace(
  head: AllocationNode,
  place: (frame: AllocationNode['callFrame']) => string,
): Map<string, number> {
  const bytes = new Map<string, number>()
  const visit = (node: AllocationNode) => {
    if (node.selfSize) {
      const where = place(node.callFrame)
      bytes.set(where, (bytes.get(where) ?? 0) + node.selfSize)
    }
    for (const child of node.children) visit(child)
  }
  visit(head)
  return bytes
}
