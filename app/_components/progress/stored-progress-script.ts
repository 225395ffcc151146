import { PROGRESS_STORAGE_KEY } from '@/lib/progress/store';

/**
 * Inlined in <head>: marks the page when this device has stored progress, so that what the server rendered for a new
 * reader ([data-new-reader]: the home page's "Start" link, a chapter's "Mark as completed") is hidden, its space
 * kept, until the page's code has read where this reader left off. That code starts on the reader's first
 * interaction (app/_components/boot/deferred-boot.ts).
 */
export const storedProgressScript = `try{if(localStorage.getItem(${JSON.stringify(PROGRESS_STORAGE_KEY)}))document.documentElement.dataset.storedProgress=''}catch(e){}`;
