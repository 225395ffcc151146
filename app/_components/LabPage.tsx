import { labPresets, type LabEntry, type LabFace } from '@/content/labs';
import { getChapterMeta } from '@/lib/content/chapters';
import { compileChapter } from '@/lib/content/compile';
import { trainerSettings } from '@/lib/spec/registry';
import { LabLoader } from '@/labs/LabLoader';
import { LabIntro, type LabIntroFace } from './LabIntro';

/** A face's words with its chapter's link and name; a section that is not a heading of the chapter fails the build. */
export async function introFace(face: LabFace): Promise<LabIntroFace> {
  const chapter = getChapterMeta(face.chapter);
  if (!chapter) return { title: face.title, summary: face.summary };
  const name = `chapter ${chapter.number}: ${chapter.title}`;
  if (!face.section) return { title: face.title, summary: face.summary, chapter: { href: `/chapters/${chapter.slug}/`, name } };
  const heading = (await compileChapter(chapter.slug)).headings.find((h) => h.id === face.section);
  if (!heading) throw new Error(`content/labs.ts: chapter "${chapter.slug}" has no heading with the id "${face.section}"`);
  return { title: face.title, summary: face.summary, chapter: { href: `/chapters/${chapter.slug}/#${heading.id}`, name, section: heading.text } };
}

/**
 * A lab on its own page: title, what it trains, the chapter to read (each following the preset chosen in the lab,
 * where the lab lists variants), and the lab itself (loaded at once).
 */
export async function LabPage({ lab }: { lab: LabEntry }) {
  const firstPreset = labPresets(lab, trainerSettings(lab.trainer).presets)[0];
  const variants = await Promise.all((lab.variants ?? []).map(async (variant) => ({ ...(await introFace(variant)), presets: variant.presets })));
  return (
    <main className="page lab-page">
      <LabIntro own={await introFace(lab)} variants={variants} firstPreset={firstPreset}>
        <section aria-labelledby="lab-title">
          <h2 id="lab-title">Train it in your browser</h2>
          <LabLoader slug={lab.slug} />
        </section>
      </LabIntro>
    </main>
  );
}
