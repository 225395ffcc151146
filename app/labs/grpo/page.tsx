import type { Metadata } from 'next';
import Link from 'next/link';
import { LabLoader } from '@/labs/LabLoader';
import { labs } from '@/content/labs';

const lab = labs.find((l) => l.slug === 'grpo')!;

export const metadata: Metadata = { title: lab.title, description: lab.summary };

export default function GrpoLabPage() {
  return (
    <main className="page lab-page">
      <h1>{lab.title}</h1>
      <p className="lede">{lab.summary}</p>
      <p>
        The ideas behind it are in <Link href={`/chapters/${lab.chapter}/`}>chapter 6</Link>; the pipeline around it in{' '}
        <Link href="/chapters/pipeline/">chapter 7</Link>.
      </p>
      <LabLoader lab="grpo" />
    </main>
  );
}
