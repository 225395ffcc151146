/**
 * Presses again, in a freshly hydrated island, the buttons the reader pressed on its server-rendered HTML before its
 * code arrived: on a slow line a click must not be lost. (Values typed or chosen meanwhile stay in the page, and each
 * widget reads its fields once when it mounts: app/_components/widgets/hydration.ts.)
 */
export function replay(root: HTMLElement, events: Event[]): void {
  for (const event of events) {
    const button = event.type === 'click' ? (event.target as Element | null)?.closest?.('button') : null;
    if (button && root.contains(button) && button.isConnected && !button.disabled) button.click();
  }
}
