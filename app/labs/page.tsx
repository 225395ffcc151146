import type { Metadata } from 'next';
import Link from 'next/link';
import { labs, plannedLabs } from '@/content/labs';
import { getChapterMeta } from '@/lib/content/chapters';

export const metadata: Metadata = { title: 'Labs', description: 'Labs that train tiny policy models in your browser.' };

export default function LabsIndex() {
  return (
    <main className="page">
      <h1>Labs</h1>
      <p className="lede">
        Each lab trains a small model for real, in your browser, with TensorFlow.js: on WebGPU when your machine has a
        GPU, otherwise on WebGL, WebAssembly or the CPU. The controls are named after Hugging Face TRL&apos;s
        configuration fields, so what you practise here carries over to a real cluster.
      </p>
      {labs.length > 0 ? (
        <ul className="lab-list">
          {labs.map((lab) => (
            <li key={lab.slug}>
              <Link href={`/labs/${lab.slug}/`} prefetch={false}>
                {lab.title}
              </Link>
              <p>{lab.summary}</p>
            </li>
          ))}
        </ul>
      ) : (
        <p>No lab is open yet.</p>
      )}
      {plannedLabs.length > 0 ? <h2>Coming next</h2> : null}
      <ul className="lab-list">
        {plannedLabs.map((lab) => {
          const chapter = getChapterMeta(lab.chapter);
          return (
            <li key={lab.title}>
              <strong>{lab.title}</strong>
              <p>{lab.summary}</p>
              {chapter ? (
                <p>
                  Read first: <Link href={`/chapters/${chapter.slug}/`}>{chapter.title}</Link>
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </main>
  );
}
