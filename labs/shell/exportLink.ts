/**
 * Chapter 7's walk through the exported project: every lab links to it. Its own module, so that the export button
 * (ExportForTrl) and the dialog it loads lazily (ExportDialog) both read it without importing each other.
 */
export const EXPORT_CHAPTER_LINK = '/chapters/pipeline/#take-it-to-a-real-gpu';
