import { ConsolePage } from './console.tsx';

// Being written (issue 17).
export function Settings() {
  return <ConsolePage title="Settings">{null}</ConsolePage>;
}
