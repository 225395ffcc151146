import { z } from 'zod';
import { EXERCISE_IDS, type ExerciseId } from '@/content/exercise-ids';

/**
 * The tag vocabulary chapters may use. The MDX registry in app/_components/mdx maps each name to a
 * component; the compiler refuses any other capitalised tag so a typo fails the build, not the reader.
 */
export const CHAPTER_COMPONENTS = [
  'Callout',
  'Pitfall',
  'DeepDive',
  'Figure',
  'Quiz',
  'LabEmbed',
  'KeyTakeaways',
  'References',
  'AdvantageCalculator',
  'ClipVisualizer',
  'GaeCalculator',
  'DpoLossExplorer',
  'LoraCalculator',
  'TrajectoryValidator',
  'MemoryCalculator',
  'PipelineTimeline',
  'RingAllReduce',
  'DistDemo',
  'MdpStepper',
  'Exercise',
] as const;

export type ChapterComponentName = (typeof CHAPTER_COMPONENTS)[number];

export function isChapterComponent(name: string): name is ChapterComponentName {
  return (CHAPTER_COMPONENTS as readonly string[]).includes(name);
}

/** A quiz as authored: checked at compile time, so a quiz with no right answer never ships. */
export const quizPropsSchema = z
  .object({
    id: z.string().regex(/^ch\d{2}-[a-z0-9-]+$/, 'quiz id must look like ch01-some-name'),
    question: z.string().min(5),
    choices: z.array(z.string().min(1)).min(2).max(6),
    answer: z.number().int().min(0),
    explanation: z.string().min(5),
  })
  .strict()
  .refine((q) => q.answer < q.choices.length, { message: 'answer is not the index of a choice', path: ['answer'] });

export type QuizProps = z.infer<typeof quizPropsSchema>;

export const figurePropsSchema = z
  .object({
    src: z.string().regex(/^\/figures\/[A-Za-z0-9._-]+$/, 'figure src must be /figures/<file>'),
    alt: z.string().min(3),
    caption: z.string().optional(),
  })
  .strict();

export const labEmbedPropsSchema = z.object({ lab: z.string().regex(/^[a-z0-9-]+$/) }).strict();

/** A code exercise of content/exercises.ts, by id: an unknown id fails the build. */
export const exercisePropsSchema = z
  .object({ id: z.enum(EXERCISE_IDS as unknown as [ExerciseId, ...ExerciseId[]], { error: `unknown exercise id (known: ${EXERCISE_IDS.join(', ')})` }) })
  .strict();
