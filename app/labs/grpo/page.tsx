import type { Metadata } from 'next';
import { LabPage, labMetadata } from '@/app/_components/LabPage';

export const metadata: Metadata = labMetadata('grpo');

export default function Page() {
  return <LabPage slug="grpo" />;
}
