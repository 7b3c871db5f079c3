/**
 * The fake providers' pages: plain HTML forms a person (or Chromium in a journey) can use without JavaScript,
 * with a title, a heading, a main landmark and named buttons, so that the journeys' accessibility checks
 * pass on the way through them.
 */

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0; padding: 2rem 1rem; }
main { max-width: 28rem; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: 0 0 0.5rem; }
ul { list-style: none; margin: 1.5rem 0; padding: 0; display: grid; gap: 0.75rem; }
button { width: 100%; padding: 0.75rem 1rem; font: inherit; text-align: start; border-radius: 0.5rem;
  border: 1px solid CanvasText; background: Canvas; color: CanvasText; cursor: pointer; overflow-wrap: anywhere; }
button:focus-visible { outline: 3px solid Highlight; outline-offset: 2px; }
.secondary { text-align: center; border-style: dashed; }
`;

/** A whole page; `body` is HTML already escaped by the caller. */
export function htmlPage(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>`;
}

export interface ChoiceButton {
  /** The submitted value of the `choice` field. */
  value: string;
  label: string;
}

/**
 * The chooser both fake providers show: one form, one button per account (a click signs in as that account
 * and grants what the client asked), and a Cancel button (the user declines: the client gets access_denied).
 */
export function chooserPage(title: string, intro: string, action: string, choices: ChoiceButton[]): string {
  const items = choices
    .map(
      (choice) =>
        `<li><button type="submit" name="choice" value="${escapeHtml(choice.value)}">${escapeHtml(choice.label)}</button></li>`,
    )
    .join('\n');
  return htmlPage(
    title,
    `<p>${escapeHtml(intro)}</p>
<form method="post" action="${escapeHtml(action)}">
<ul>
${items}
</ul>
<button type="submit" name="cancel" value="1" class="secondary">Cancel</button>
</form>`,
  );
}

/** An error page: what went wrong, in words, with the protocol's error code. */
export function errorPage(title: string, message: string): string {
  return htmlPage(title, `<p role="alert">${escapeHtml(message)}</p>`);
}
