import { useState } from 'preact/hooks';

/**
 * What the page just left has to say on the next (an item added, one deleted): said there once, as a notice. Kept
 * here, not in the address, so that a reload or a link does not say it again.
 */
let carried: string | null = null;

/** Leaves `news` for the next page to say. */
export function carryNews(news: string): void {
  carried = news;
}

/** What the page before left to say, taken once. */
export function useCarriedNews(): string | null {
  const [news] = useState(() => {
    const said = carried;
    carried = null;
    return said;
  });
  return news;
}
