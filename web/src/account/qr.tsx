import { useMemo } from 'preact/hooks';
import qrcode from 'qrcode-generator';

/** Pixels a module: whole pixels keep the code crisp, for cameras and for the journeys' decoder. */
const MODULE_PX = 5;
/** The quiet zone around the code, in modules (the standard's four). */
const QUIET = 4;

/**
 * A QR code as SVG drawn from qrcode-generator's module matrix: one `<path>`
 * of dark squares, no HTML string, no inline style (the CSP allows neither).
 */
export function QrCode(props: { value: string; label: string }) {
  const { size, d } = useMemo(() => {
    const qr = qrcode(0, 'M');
    qr.addData(props.value);
    qr.make();
    const count = qr.getModuleCount();
    const parts: string[] = [];
    for (let row = 0; row < count; row++) {
      for (let col = 0; col < count; col++) {
        if (qr.isDark(row, col)) parts.push(`M${col + QUIET} ${row + QUIET}h1v1h-1z`);
      }
    }
    return { size: count + 2 * QUIET, d: parts.join('') };
  }, [props.value]);
  return (
    <svg
      class="qr-code"
      role="img"
      aria-label={props.label}
      viewBox={`0 0 ${size} ${size}`}
      width={size * MODULE_PX}
      height={size * MODULE_PX}
      shape-rendering="crispEdges"
    >
      <rect width={size} height={size} fill="#ffffff" />
      <path d={d} fill="#000000" />
    </svg>
  );
}

/** The base32 secret of an `otpauth://` URI, for typing into an app by hand; null when there is none. */
export function secretOf(uri: string): string | null {
  const match = /[?&]secret=([^&#]+)/i.exec(uri);
  return match?.[1] ? decodeURIComponent(match[1]).toUpperCase() : null;
}

/** "JBSWY3DPEHPK3PXP" → "JBSW Y3DP EHPK 3PXP": easier to read and type (apps ignore the spaces). */
export function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}
