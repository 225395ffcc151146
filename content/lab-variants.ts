/**
 * What a lab's page says under each of its presets. Most labs train one thing whatever the preset, and their entry in
 * content/labs.ts says it once. A lab whose presets train different tasks (the agent lab's memory and reflection
 * presets belong to chapter 10, not chapter 1) lists variants: the presets each covers and the title, summary and
 * chapter section its page shows under them. Kept apart from content/labs.ts, which holds every lab's text, so that a
 * client component choosing a variant imports this and nothing else.
 */

/** A lab page's words: its title, its summary and the chapter (optionally one section of it) that teaches it. */
export interface LabFace {
  title: string;
  summary: string;
  /** The chapter's slug. */
  chapter: string;
  /** A heading's id in that chapter, for a link to the section rather than the chapter's top. */
  section?: string;
}

/** The lab's words under some of its presets. Adding a preset to a variant is adding its name to `presets`. */
export interface LabVariant extends LabFace {
  /** The presets it covers (each in at most one variant of the lab); its link opens the first. */
  presets: readonly string[];
}

/**
 * The words for `preset`: the variant that covers it, else the lab's own. Generic so that the server's faces (with the
 * chapter's number and title looked up) and the client's choose the same way.
 */
export function variantFor<F>(own: F, variants: readonly (F & { presets: readonly string[] })[] | undefined, preset: string): F {
  return variants?.find((variant) => variant.presets.includes(preset)) ?? own;
}
