// Types for serve-out.mjs, which TypeScript scripts (record-browser-times.ts) import.
export function serveOut(port: number): Promise<{ stop: () => void }>;
