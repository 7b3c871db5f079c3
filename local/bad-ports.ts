/**
 * The ports browsers refuse to fetch from, whatever answers there: the Fetch standard's "bad ports" (its
 * port blocking), the same list Chromium, Firefox and Safari keep, and Node's own fetch() too. They are the
 * well-known ports of other protocols (mail, IRC, X11, …), blocked so that a web page cannot make a browser speak
 * HTTP to such a server. A local stack listening on one works for curl and nothing else: the hosted pages never load.
 */
export const BAD_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/**
 * One line for each port a browser would refuse (`ports`: the setting that chose it → the port it listens on), to be
 * printed before anything says the stack is ready; none when all are fine.
 */
export function badPortWarnings(ports: Record<string, number>): string[] {
  return Object.entries(ports)
    .filter(([, port]) => BAD_PORTS.has(port))
    .map(
      ([setting, port]) =>
        `warning: ${setting}=${port} is a port browsers refuse to connect to (the Fetch standard's "bad ports"): ` +
        `pages and fetch() calls to :${port} will fail while curl works. Choose another, such as ${setting}=${suggestion(port)}.`,
    );
}

/** The next port up that browsers accept and needs no root to listen on. */
function suggestion(port: number): number {
  let next = Math.max(port + 1, 1024);
  while (BAD_PORTS.has(next)) next++;
  return next;
}
