import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { LabPage } from '@/app/_components/LabPage';
import { labNamed, labs } from '@/content/labs';

type Props = { params: Promise<{ slug: string }> };

/** One static page per lab in content/labs.ts; any other slug is a 404. */
export const dynamicParams = false;

export function generateStaticParams() {
  return labs.map((lab) => ({ slug: lab.slug }));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const lab = labNamed((await params).slug);
  return lab ? { title: lab.title, description: lab.summary } : {};
}

export default async function Page({ params }: Props) {
  const lab = labNamed((await params).slug);
  if (!lab) notFound();
  return <LabPage lab={lab} />;
}
