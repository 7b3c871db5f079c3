import { useRef, useState } from 'preact/hooks';
import { ApiError } from '../sdk.ts';

/**
 * The news of a change made from a list: `say` reads the list again first, so the sentence comes with the list
 * that shows it, then moves focus to the list's heading (the row and the button used may be gone).
 */
export function useListNews(list: { reload(): Promise<void> }) {
  const [news, setNews] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const say = async (sentence: string) => {
    await list.reload();
    setNews(sentence);
    heading.current?.focus();
  };
  return { news, setNews, heading, say };
}

/** Deletes something, answering which sentence is true: it was deleted now, or (404) it was gone already. */
export async function deleteOnce(remove: () => Promise<unknown>, said: { now: string; already: string }) {
  try {
    await remove();
    return said.now;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') return said.already;
    throw error;
  }
}
