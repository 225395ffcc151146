/**
 * The course map: the single source of truth for chapter order, slugs and grouping.
 * Navigation (sidebar, prev/next, home cards, sitemap, search) is derived from this list;
 * tests require every entry to have exactly one `content/chapters/NN-slug.mdx` and vice versa.
 */
export interface CourseEntry {
  /** URL segment: /chapters/<slug>/ */
  slug: string;
  /** The part of the course the chapter belongs to, used to group the sidebar. */
  part: 'Groundwork' | 'Algorithms' | 'Practice';
}

export const course: readonly CourseEntry[] = [
  { slug: 'agentic-rl', part: 'Groundwork' },
  { slug: 'sft-lora', part: 'Groundwork' },
  { slug: 'distributed-training', part: 'Groundwork' },
  { slug: 'ppo', part: 'Algorithms' },
  { slug: 'dpo', part: 'Algorithms' },
  { slug: 'grpo', part: 'Algorithms' },
  { slug: 'pipeline', part: 'Practice' },
  { slug: 'research-2025', part: 'Practice' },
  { slug: 'agent-data', part: 'Practice' },
  { slug: 'beyond-the-calculator', part: 'Practice' },
];
