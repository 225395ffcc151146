import Link from 'next/link';
import { labNamed } from '@/content/labs';
import { LabLoader } from '@/labs/LabLoader';

/**
 * A lab inside a chapter: the prose around it renders first; the lab's code (charts, worker, tfjs)
 * loads only when the reader opens it. Unknown labs fail the build.
 */
export function LabEmbed({ lab }: { lab: string }) {
  const entry = labNamed(lab);
  if (!entry) throw new Error(`<LabEmbed lab="${lab}"> names no lab in content/labs.ts`);
  return (
    <section className="lab-embed" aria-label={`Lab: ${entry.title}`}>
      <h3>Lab: {entry.title}</h3>
      <p>{entry.summary}</p>
      <LabLoader lab={entry.slug} deferred title={entry.title} />
      <p>
        <Link href={`/labs/${entry.slug}/`} prefetch={false}>
          Open the lab on its own page
        </Link>
      </p>
    </section>
  );
}
