import type { Metadata } from 'next';
import { labs } from '@/content/labs';
import { LabCards } from '@/app/_components/home/LabCards';

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
      {labs.length > 0 ? <LabCards headingLevel={2} /> : <p>No lab is open yet.</p>}
      <p>
        Teaching with these labs? <a href="/teach/">Make an assignment</a> with locked settings and a goal, share
        it as a link, and <a href="/teach/grade/">grade the submissions</a> by re-evaluating every checkpoint.
      </p>
    </main>
  );
}
