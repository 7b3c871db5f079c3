/**
 * Holding back navigation away from a page with unsaved work (console/leave-guard.tsx asks the question). The
 * pages' router follows link clicks and `popstate` from listeners on `window`; this module's listeners are
 * installed before the router mounts (main.tsx), so that they run first, and they stop what a guard holds back
 * before the router sees it.
 */

/** A page's guard: `ask` decides, and calls `go` to carry on with the navigation it was asked about. */
export interface LeaveQuestion {
  ask(go: () => void): void;
}

let guard: { question: LeaveQuestion; here: string } | null = null;
/** Set for the one replayed click or step back that a guard let through. */
let letThrough = false;

const here = () => location.pathname + location.search;

/** A link the router would follow to another page of this site (not a new tab, a download or `#part`). */
function leavesPage(link: HTMLAnchorElement, from: string): boolean {
  if (!link.href || link.origin !== location.origin || link.hasAttribute('download')) return false;
  if (link.target && !/^_?self$/i.test(link.target)) return false;
  return link.pathname + link.search !== from;
}

function onClick(event: MouseEvent): void {
  if (!guard || letThrough) {
    letThrough = false;
    return;
  }
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
  const from = guard.here;
  // A link to another page, or a control that leaves the page (Sign out: `data-leaves-page`).
  const target = event
    .composedPath()
    .find(
      (node): node is HTMLElement =>
        (node instanceof HTMLAnchorElement && leavesPage(node, from)) ||
        (node instanceof HTMLElement && node.hasAttribute('data-leaves-page')),
    );
  if (!target) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  guard.question.ask(() => {
    letThrough = true;
    target.click();
  });
}

function onPopState(event: PopStateEvent): void {
  if (!guard || letThrough) {
    letThrough = false;
    return;
  }
  const from = guard.here;
  if (here() === from) return;
  // The address has moved already: this page's goes back in its place, and the step back waits for the answer.
  event.stopImmediatePropagation();
  history.pushState(null, '', from);
  guard.question.ask(() => {
    letThrough = true;
    history.back();
  });
}

/** Once, before the router mounts. */
export function installLeaveGuard(): void {
  addEventListener('click', onClick, true);
  addEventListener('popstate', onPopState, true);
}

/** Guards the page now shown until the returned function is called; one page at a time. */
export function guardLeaving(question: LeaveQuestion): () => void {
  const mine = { question, here: here() };
  guard = mine;
  return () => {
    if (guard === mine) guard = null;
  };
}
