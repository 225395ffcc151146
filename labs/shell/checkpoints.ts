/** Shipped checkpoints for a lab's workers, fetched from the site once per worker. */
const checkpoints = new Map<string, Uint8Array>();

export async function readCheckpoint(path: string): Promise<Uint8Array> {
  const cached = checkpoints.get(path);
  if (cached) return cached;
  const response = await fetch(`/${path}`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  checkpoints.set(path, bytes);
  return bytes;
}
