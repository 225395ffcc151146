import Link from 'next/link';
import { labs } from '@/content/labs';

/**
 * A lab inside a chapter. It reserves its space and links to the full-page lab; the interactive
 * lab (and tfjs) loads lazily when the lab's own component exists. Unknown labs fail the build.
 */
export function LabEmbed({ lab }: { lab: string }) {
  const entry = labs.find((l) => l.slug === lab);
  if (!entry) throw new Error(`<LabEmbed lab="${lab}"> names no lab in content/labs.ts`);
  return (
    <section className="lab-embed" aria-label={`Lab: ${entry.title}`}>
      <h3>Lab: {entry.title}</h3>
      <p>{entry.summary}</p>
      <Link href={`/labs/${entry.slug}/`} prefetch={false}>
        Open the lab
      </Link>
    </section>
  );
}
