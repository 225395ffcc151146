import { labNamed } from '@/content/labs';
import { Island } from '../islands/Island';

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
      <Island name="LabLoader" props={{ slug: entry.slug, deferred: true, title: entry.title }} />
      <p>
        <a href={`/labs/${entry.slug}/`}>
          Open the lab on its own page
        </a>
      </p>
    </section>
  );
}
